import type { AggregateMetrics, QuestionResult } from "../experiment.js";

/** How a metric's number reads: its range or unit. */
export type MetricScale = "0-10" | "0-1" | "seconds" | "USD";
export type MetricDirection = "higher" | "lower";

/** What a strategy's value is computed from: the questions that did not fail (a baseline file keeps only these fields). */
export type ScoredQuestion = Pick<QuestionResult, "error" | "answered" | "metrics">;

/**
 * One metric, in one place (one file under `src/domain/metric-registry/`, one line in `registry.ts`): what the
 * catalogue, the scorecard, the composite, the quality means and the reports know of it.
 */
export interface Metric {
  /** Wire name, as in `aggregate_metrics`, `--fail-under` and reports. */
  key: string;
  /** Short column header. */
  label: string;
  scale: MetricScale;
  /** Which way is better: gates and tie-breaks follow it. */
  direction: MetricDirection;
  /** One line saying what the number measures. */
  definition: string;
  /** The AggregateMetrics field holding the strategy's value. */
  field: keyof AggregateMetrics;
  /** The per-question field of QuestionMetrics it averages, when it is a mean over questions. */
  perQuestion?: keyof QuestionResult["metrics"];
  /** A quality metric that is not a plain mean: its value over the questions that did not fail. */
  fromQuestions?: (ok: ScoredQuestion[], hallucinationThreshold: number) => number | null;
  /** Measured against reference excerpts: null, with that reason, when no question has one. */
  needsReferences?: boolean;
  /** Digits it is shown with in the scorecard (console and CI summary); absent: not a scorecard column. */
  scorecardDigits?: number;
  /**
   * Its term in the composite: the weight's name, its default, and the factor that brings the
   * value to 0-10. `order` fixes the order the terms are summed in, so that composites stay
   * bit-identical to those already stored in experiments and baselines.
   */
  composite?: { weight: string; defaultWeight: number; factor: number; order: number };
}
