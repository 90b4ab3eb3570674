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

export type CompositeMetric = Metric & { composite: NonNullable<Metric["composite"]> };
export type PerQuestionMetric = Metric & { perQuestion: NonNullable<Metric["perQuestion"]> };

/**
 * Every metric chunkeval reports, one line each, in the order scorecards, reports and JSON
 * exports show them (ARCHITECTURE convention 16). A metric is its file plus its line here.
 */
const BUILT_IN: readonly Metric[] = [
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
 * A metric is its file plus its line here.
 */
const BUILT_IN_AT_K: readonly AtKMetric[] = [recallAtK, mrrAtK, ndcgAtK];

/** Metrics a composition adds after the built-in ones (a plug-in's, or a test's). */
export interface MetricPlugins {
  metrics?: readonly Metric[];
  atKMetrics?: readonly AtKMetric[];
}

/**
 * The metrics of one composition (like its strategy, embedder and judge registries): everything that
 * computes, averages, gates or reports metrics reads the registry it is handed, so a metric a
 * composition adds is computed, averaged, gated and reported like the built-in ones, and no other
 * composition in the same process sees it.
 */
export interface MetricRegistry {
  /** Every metric, in the order scorecards, reports and JSON exports show them. */
  readonly all: readonly Metric[];
  /** Every metric at the cut-offs k, in the order rank cuts and the ranking table show them. */
  readonly atK: readonly AtKMetric[];
  /** The metrics computed from a strategy's question results (means, or their own rule): what a bootstrap resample recomputes. */
  readonly quality: readonly Metric[];
  /** The metrics computed for each question, with how. */
  readonly perQuestion: readonly PerQuestionMetric[];
  /** The composite's terms, in the order they are summed. */
  readonly composite: readonly CompositeMetric[];
  /** The metric with this wire name, if there is one. */
  definition(key: string): Metric | undefined;
}

/** Throws when two entries of `list` collide by `same` (a key, a field). */
function refuseClashes<T>(list: readonly T[], sameAs: (a: T, b: T) => boolean, name: (entry: T) => string, same: string): void {
  list.forEach((item, at) => {
    const other = list.slice(0, at).find((earlier) => sameAs(earlier, item));
    if (other) throw new Error(`metric ${name(item)} clashes with the registered metric ${name(other)} (same ${same})`);
  });
}

/**
 * The built-in metrics followed by `plugins`' (whose key, field and per-question field must be new, as
 * must an at-k metric's label, field and per-question field).
 */
export function createMetricRegistry(plugins: MetricPlugins = {}): MetricRegistry {
  const all = [...BUILT_IN, ...(plugins.metrics ?? [])];
  const atK = [...BUILT_IN_AT_K, ...(plugins.atKMetrics ?? [])];
  refuseClashes(
    all,
    (a, b) => a.key === b.key || a.field === b.field || (b.perQuestion !== undefined && a.perQuestion?.field === b.perQuestion.field),
    (m) => m.key,
    "key, field or per-question field",
  );
  refuseClashes(
    atK,
    (a, b) => a.label === b.label || a.field === b.field || a.perQuestionField === b.perQuestionField,
    (m) => m.label,
    "label, field or per-question field",
  );
  const byKey = new Map(all.map((m) => [m.key, m]));
  return Object.freeze({
    all: Object.freeze(all),
    atK: Object.freeze(atK),
    quality: Object.freeze(all.filter((m) => m.perQuestion !== undefined || m.questionValue !== undefined)),
    perQuestion: Object.freeze(all.filter((m): m is PerQuestionMetric => m.perQuestion !== undefined)),
    composite: Object.freeze(all.filter((m): m is CompositeMetric => m.composite !== undefined).sort((a, b) => a.composite.order - b.composite.order)),
    definition: (key: string) => byKey.get(key),
  });
}

/**
 * The built-in metrics alone: what reads metrics outside a composition uses (the configuration file's
 * weights, checked before anything is composed; `--help` texts; scripts and tests of the built-ins).
 */
export const BUILT_IN_METRICS: MetricRegistry = createMetricRegistry();
