import type { Metric } from "./metric.js";
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
 * Adds a metric after the built-in ones (a plug-in's, or a test's); its key, field and per-question
 * field must be new. Returns how to take it out again.
 */
export function registerMetric(metric: Metric): () => void {
  const clash = METRIC_REGISTRY.find(
    (m) => m.key === metric.key || m.field === metric.field || (metric.perQuestion && m.perQuestion?.field === metric.perQuestion.field),
  );
  if (clash) throw new Error(`metric ${metric.key} clashes with the registered metric ${clash.key} (same key, field or per-question field)`);
  METRIC_REGISTRY.push(metric);
  return () => {
    const at = METRIC_REGISTRY.indexOf(metric);
    if (at >= 0) METRIC_REGISTRY.splice(at, 1);
  };
}

/** The metrics computed from a strategy's question results (means, or their own rule): what a bootstrap resample recomputes. */
export function qualityMetrics(): Metric[] {
  return METRIC_REGISTRY.filter((m) => m.perQuestion !== undefined || m.fromQuestions !== undefined);
}

/** The metrics computed for each question, with how. */
export function perQuestionMetrics(): PerQuestionMetric[] {
  return METRIC_REGISTRY.filter((m): m is PerQuestionMetric => m.perQuestion !== undefined);
}

/** The composite's terms, in the order they are summed. */
export function compositeMetrics(): CompositeMetric[] {
  return METRIC_REGISTRY.filter((m): m is CompositeMetric => m.composite !== undefined).sort((a, b) => a.composite.order - b.composite.order);
}
