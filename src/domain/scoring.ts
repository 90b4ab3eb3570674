// Scoring by the metric registry: the composite score and its weights, a strategy's quality
// means, and the best strategy. Above the metrics (metric-registry/), which read only the span
// arithmetic of ./metrics.ts.
import type { AggregateMetrics, QuestionMetrics } from "./experiment.js";
import type { Metric, ScoredQuestion } from "./metric-registry/metric.js";
import type { CompositeMetric, MetricRegistry } from "./metric-registry/registry.js";
import { mean } from "./metrics.js";

/**
 * Default weights of the composite score (each metric's file under `src/domain/metric-registry/` gives its
 * own). Every term is on a 0-10 scale (recall, MRR and IoU are scaled from 0-1); a metric that is
 * missing for a strategy drops out and the rest are re-weighted, so strategies are compared on
 * what could be measured. Retrieval efficiency (IoU on a log scale) carries weight so that
 * retrieving more text is not rewarded for free: recall alone always prefers bigger chunks.
 */
export function defaultWeights(metrics: MetricRegistry): Record<string, number> {
  return Object.fromEntries(metrics.composite.map((m) => [m.composite.weight, m.composite.defaultWeight]));
}

/** What the composite reads: quality means (every composite term is one); a mean left out counts as not measured. */
export type CompositeInput = Partial<QualityMeans>;

/**
 * How many composite points each measured metric contributed (weight × value on 0-10 over the
 * weights of the measured metrics); the contributions add up to the composite score. Null when
 * nothing could be measured.
 */
export function compositeContributions(m: CompositeInput, weights: Record<string, number>, terms: readonly CompositeMetric[]): Record<string, number> | null {
  const value = (t: CompositeMetric) => (m as Partial<Record<string, number | null>>)[t.field] ?? null;
  const measured = terms.filter((t) => value(t) !== null && (weights[t.composite.weight] ?? 0) > 0);
  const totalWeight = measured.reduce((n, t) => n + weights[t.composite.weight]!, 0);
  if (totalWeight === 0) return null;
  return Object.fromEntries(measured.map((t) => [t.key, (weights[t.composite.weight]! * value(t)! * t.composite.factor) / totalWeight]));
}

/** The composite: the sum of its contributions. `terms`, the registry's composite metrics, may be read once by a caller that scores many times. */
export function compositeScore(m: CompositeInput, weights: Record<string, number>, terms: readonly CompositeMetric[]): number | null {
  const parts = compositeContributions(m, weights, terms);
  return parts === null ? null : Object.values(parts).reduce((a, b) => a + b, 0);
}

/** The quality means of a set of question results: what a strategy scored, and what a bootstrap resample recomputes. */
export type QualityMeans = Pick<
  AggregateMetrics,
  | "avgContextRelevance"
  | "avgAnswerSimilarity"
  | "avgFaithfulness"
  | "hallucinationRate"
  | "avgRecall"
  | "avgPrecision"
  | "avgIou"
  | "avgRetrievalEfficiency"
  | "avgPrecisionOmega"
  | "hitRate"
  | "mrr"
  | "avgRetrievedTokens"
>;

/** A question's score under a metric's per-question field (a registered metric's field is not among QuestionMetrics' named ones). */
export function scoreOf(metrics: QuestionMetrics, field: string): number | null {
  return (metrics as unknown as Record<string, number | null | undefined>)[field] ?? null;
}

/** What one question counts for a quality metric: its `questionValue` (as the hallucination rate's), else its per-question field. */
export function questionScore(metric: Metric, question: ScoredQuestion, hallucinationThreshold: number): number | null {
  return metric.questionValue ? metric.questionValue(question, hallucinationThreshold) : scoreOf(question.metrics, metric.perQuestion!.field);
}

/** Means over the questions that did not fail of what each counts (questionScore); a metric no question produced is null. */
export function qualityMeans(results: ScoredQuestion[], hallucinationThreshold: number, metrics: MetricRegistry): QualityMeans {
  const ok = results.filter((r) => r.error === null);
  return Object.fromEntries(
    metrics.quality.map((metric) => [metric.field, mean(ok.map((r) => questionScore(metric, r, hallucinationThreshold)))]),
  ) as unknown as QualityMeans;
}

/**
 * The best strategy: highest composite score. Ties (within 1e-9) go to the fewer tokens retrieved
 * per question (the same answers from less text cost less), then the lower hallucination rate,
 * then the higher IoU, each only where both strategies measured it, then the name. Only
 * quantities that the same inputs reproduce decide: never wall-clock time.
 */
export function bestStrategy(aggregates: Record<string, AggregateMetrics>): string {
  const compareMeasured = (a: number | null, b: number | null) => (a === null || b === null || Math.abs(a - b) <= 1e-9 ? 0 : a - b);
  const entries = Object.entries(aggregates);
  entries.sort(
    ([an, a], [bn, b]) =>
      compareMeasured(b.compositeScore ?? -1, a.compositeScore ?? -1) ||
      compareMeasured(a.avgRetrievedTokens ?? null, b.avgRetrievedTokens ?? null) ||
      compareMeasured(a.hallucinationRate, b.hallucinationRate) ||
      compareMeasured(b.avgIou, a.avgIou) ||
      an.localeCompare(bn),
  );
  return entries[0]![0];
}
