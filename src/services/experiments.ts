import { NotFoundError } from "../errors.js";
import type { AggregateMetrics, ExperimentRecord, QuestionResult } from "../domain/experiment.js";
import type { ServiceContext } from "./context.js";

export function getExperiment(ctx: ServiceContext, id: string): ExperimentRecord {
  const found = ctx.experiments.get(id);
  if (!found) throw new NotFoundError(`experiment not found: ${id}`);
  return found;
}

export function listExperiments(ctx: ServiceContext, page: { offset: number; limit: number }) {
  return { ...ctx.experiments.list(page.offset, page.limit), offset: page.offset, limit: page.limit };
}

export function experimentResults(ctx: ServiceContext, id: string): Record<string, QuestionResult[]> {
  getExperiment(ctx, id);
  return ctx.experiments.results(id);
}

/** The numeric metrics compared against a baseline and checked by --fail-under. */
export const COMPARABLE_METRICS = [
  "composite_score",
  "avg_context_relevance",
  "avg_answer_similarity",
  "avg_faithfulness",
  "hallucination_rate",
  "avg_recall",
  "avg_precision",
  "avg_iou",
  "hit_rate",
  "mrr",
  "avg_latency_seconds",
] as const;
export type ComparableMetric = (typeof COMPARABLE_METRICS)[number];

export function metricValue(m: AggregateMetrics, metric: ComparableMetric): number | null {
  const key = metric.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof AggregateMetrics;
  const v = m[key];
  return typeof v === "number" ? v : null;
}

/** Change of every metric per strategy against a baseline experiment (strategies in both only). */
export function compareWithBaseline(current: ExperimentRecord, baseline: ExperimentRecord): Record<string, Record<ComparableMetric, number | null>> {
  const out: Record<string, Record<ComparableMetric, number | null>> = {};
  for (const strategy of current.strategiesUsed) {
    const before = baseline.aggregateMetrics[strategy];
    if (!before) continue;
    const now = current.aggregateMetrics[strategy]!;
    out[strategy] = Object.fromEntries(
      COMPARABLE_METRICS.map((metric) => {
        const a = metricValue(now, metric);
        const b = metricValue(before, metric);
        return [metric, a === null || b === null ? null : a - b];
      }),
    ) as Record<ComparableMetric, number | null>;
  }
  return out;
}
