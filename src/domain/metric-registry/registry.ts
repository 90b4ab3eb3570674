import type { AtKMetric, Metric } from "./metric.js";
import { compositeScore } from "./composite-score.js";
import { contextRelevance } from "./context-relevance.js";
import { answerSimilarity } from "./answer-similarity.js";
import { faithfulness } from "./faithfulness.js";
import { hallucinationRate } from "./hallucination-rate.js";
import { recall } from "./recall.js";
import { precision } from "./precision.js";
import { iou } from "./iou.js";
import { retrievalEfficiency } from "./retrieval-efficiency.js";
import { precisionOmega } from "./precision-omega.js";
import { hitRate } from "./hit-rate.js";
import { mrr } from "./mrr.js";
import { latency } from "./latency.js";
import { cost } from "./cost.js";
import { retrievedTokens } from "./retrieved-tokens.js";
import { recallAtK } from "./recall-at-k.js";
import { mrrAtK } from "./mrr-at-k.js";
import { ndcgAtK } from "./ndcg-at-k.js";

type CompositeMetric = Metric & { composite: NonNullable<Metric["composite"]> };
type PerQuestionMetric = Metric & { perQuestion: NonNullable<Metric["perQuestion"]> };

/**
 * Every metric chunkeval reports, one line each, in the order scorecards, reports and JSON
 * exports show them (ARCHITECTURE convention 16). A metric is its file plus its line here.
 * Everything that lists metrics reads this array when it runs (the functions below), so a metric
 * added with `registerMetric` is computed, averaged, gated and reported like these.
 */
export const METRIC_REGISTRY: Metric[] = [
  compositeScore,
  contextRelevance,
  answerSimilarity,
  faithfulness,
  hallucinationRate,
  recall,
  precision,
  iou,
  retrievalEfficiency,
  precisionOmega,
  hitRate,
  mrr,
  latency,
  cost,
  retrievedTokens,
];

/**
 * Every metric scored at the cut-offs k of one ranking per question (`AtKMetric`), one line each, in the
 * order each question's `rankCuts`, each strategy's `rankMetrics` and the reports' ranking table show them.
 * A metric is its file plus its line here; `registerAtKMetric` adds one the same way.
 */
export const AT_K_METRIC_REGISTRY: AtKMetric[] = [recallAtK, mrrAtK, ndcgAtK];

/** Appends `item` to `list` unless `clash` finds an entry it would collide with; returns how to take it out again. */
function register<T>(list: T[], item: T, clash: (other: T) => boolean, name: (entry: T) => string, same: string): () => void {
  const other = list.find(clash);
  if (other) throw new Error(`metric ${name(item)} clashes with the registered metric ${name(other)} (same ${same})`);
  list.push(item);
  return () => {
    const at = list.indexOf(item);
    if (at >= 0) list.splice(at, 1);
  };
}

/**
 * Adds a metric after the built-in ones (a plug-in's, or a test's); its key, field and per-question
 * field must be new. Returns how to take it out again.
 */
export function registerMetric(metric: Metric): () => void {
  return register(
    METRIC_REGISTRY,
    metric,
    (m) => m.key === metric.key || m.field === metric.field || (metric.perQuestion !== undefined && m.perQuestion?.field === metric.perQuestion.field),
    (m) => m.key,
    "key, field or per-question field",
  );
}

/** Adds an at-k metric after the built-in ones; its label, field and per-question field must be new. Returns how to take it out again. */
export function registerAtKMetric(metric: AtKMetric): () => void {
  return register(
    AT_K_METRIC_REGISTRY,
    metric,
    (m) => m.label === metric.label || m.field === metric.field || m.perQuestionField === metric.perQuestionField,
    (m) => m.label,
    "label, field or per-question field",
  );
}

/** The metrics computed from a strategy's question results (means, or their own rule): what a bootstrap resample recomputes. */
export function qualityMetrics(): Metric[] {
  return METRIC_REGISTRY.filter((m) => m.perQuestion !== undefined || m.questionValue !== undefined);
}

/** The metrics computed for each question, with how. */
export function perQuestionMetrics(): PerQuestionMetric[] {
  return METRIC_REGISTRY.filter((m): m is PerQuestionMetric => m.perQuestion !== undefined);
}

/** The composite's terms, in the order they are summed. */
export function compositeMetrics(): CompositeMetric[] {
  return METRIC_REGISTRY.filter((m): m is CompositeMetric => m.composite !== undefined).sort((a, b) => a.composite.order - b.composite.order);
}
