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

/**
 * Every metric chunkeval reports, one line each, in the order scorecards, reports and JSON
 * exports show them (ARCHITECTURE convention 16). A metric is its file plus its line here.
 */
export const METRIC_REGISTRY: readonly Metric[] = [
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
];

/** The metrics computed from a strategy's question results (means, or their own rule): what a bootstrap resample recomputes. */
export const QUALITY_METRICS: readonly Metric[] = METRIC_REGISTRY.filter((m) => m.perQuestion !== undefined || m.fromQuestions !== undefined);

/** The composite's terms, in the order they are summed. */
export const COMPOSITE_METRICS: ReadonlyArray<Metric & { composite: NonNullable<Metric["composite"]> }> = METRIC_REGISTRY.filter(
  (m): m is Metric & { composite: NonNullable<Metric["composite"]> } => m.composite !== undefined,
).sort((a, b) => a.composite.order - b.composite.order);
