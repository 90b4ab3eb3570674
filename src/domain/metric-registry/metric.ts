import type { QuestionResult } from "../experiment.js";
import type { AnsweredQuestion, QuestionRanking, RetrievedQuestion } from "../question-evaluation.js";
import type { Judge } from "../judge.js";
import type { SearchMode } from "../variant-key.js";

/** How a metric's number reads: its range or unit. */
export type MetricScale = "0-10" | "0-1" | "seconds" | "USD" | "tokens";
export type MetricDirection = "higher" | "lower";

/** What a strategy's value is computed from: the questions that did not fail (a baseline file keeps only these fields). */
export type ScoredQuestion = Pick<QuestionResult, "error" | "answered" | "metrics" | "retrievedTokens">;

/**
 * How a per-question metric is computed, and when: `retrieval` metrics right after the search
 * (also in a dry run; with `needsReferences`, only for questions that have references),
 * `answer` metrics once the answer is generated and judged. A value may be null (not measurable
 * for that question) and may be awaited (a metric that asks a model of its own).
 */
export type PerQuestionRule =
  | { field: string; stage: "retrieval"; compute: (q: RetrievedQuestion) => number | null | Promise<number | null> }
  | { field: string; stage: "answer"; compute: (q: AnsweredQuestion) => number | null | Promise<number | null> };

/** What decides whether a metric can be measured for one strategy of a run: the judge, and how the strategy searched. */
export interface StrategyMeasuring {
  judge: Pick<Judge, "contextRelevanceUnmeasurable"> | null;
  retrieval: SearchMode;
  /** The embedder it searched with, when not the run's (a variant's `@embedder=`). */
  retrieverEmbedder?: string;
}

/**
 * One metric, in one place (one file under `src/domain/metric-registry/`, one line in `registry.ts`): how it
 * is computed, and what the catalogue, the scorecards, the composite, the quality means, the baseline gate
 * and the reports know of it.
 */
export interface Metric {
  /** Wire name, as in `aggregate_metrics`, `--fail-under` and reports. */
  key: string;
  /** Short column header (console scorecard, charts). */
  label: string;
  scale: MetricScale;
  /** Which way is better: gates and tie-breaks follow it. */
  direction: MetricDirection;
  /** One line saying what the number measures. */
  definition: string;
  /** The AggregateMetrics field holding the strategy's value (its name in the Experiment JSON). */
  field: string;
  /**
   * Computed per question (its value in each question's `metrics`, under `perQuestion.field`, and in a
   * baseline file's scores under that name in snake_case); the strategy's value is the mean over the
   * questions that did not fail, unless `questionValue` says otherwise.
   */
  perQuestion?: PerQuestionRule;
  /**
   * A quality metric that is not the mean of a `perQuestion` field: what each question that did not
   * fail counts for it (null: not counted), the strategy's value being their mean. A per-question
   * value, not a rule over the questions, so that a bootstrap resample only adds up a column.
   */
  questionValue?: (question: ScoredQuestion, hallucinationThreshold: number) => number | null;
  /** Measured against reference excerpts: null, with that reason, when no question has one. */
  needsReferences?: boolean;
  /** Needs generated answers: null in a dry run. */
  needsAnswers?: boolean;
  /** Needs answers a language model wrote: null when the generator copies them from the context. */
  needsGeneratedAnswers?: boolean;
  /**
   * Why this strategy cannot measure it (null: it can). A composite term some strategies of a run
   * cannot measure leaves every strategy's composite, said in the verdict notes.
   */
  unmeasurableFor?: (strategy: StrategyMeasuring) => string | null;
  /** Why the metric is null over these results when the generic reasons do not apply (null: no reason of its own). */
  missingReason?: (ok: QuestionResult[], missing: Record<string, string>) => string | null;
  /** Digits it is shown with in the scorecard (console and CI summary); absent: not a scorecard column. */
  scorecardDigits?: number;
  /**
   * Its column heading in the report scorecards (HTML and Markdown); absent: not a column there. A soft
   * hyphen (\u00AD) marks where the HTML heading may break (narrow columns); Markdown drops it.
   */
  reportColumn?: string;
  /** How reports show it: as a percentage (a 0-1 share), in dollars, or (absent) as a number with `scorecardDigits` digits. */
  format?: "percent" | "usd";
  /** Its column in the sweep tables and charts (Chroma's span recall, precision and IoU, then the composite); absent: not a column there. */
  sweepColumn?: number;
  /**
   * Its term in the composite: the weight's name, its default, and the factor that brings the
   * value to 0-10. `order` fixes the order the terms are summed in, so that composites stay
   * bit-identical to those already stored in experiments and baselines.
   */
  composite?: { weight: string; defaultWeight: number; factor: number; order: number };
}

/**
 * A metric at several cut-offs k (Recall@k, MRR@k, nDCG@k), in one place (one file under
 * `src/domain/metric-registry/`, one line of BUILT_IN_AT_K in `registry.ts`): computed for each
 * question that has references at every cut of RANK_CUTS from one ranking as deep as the deepest cut
 * (each question's `rankCuts`), averaged per cut with a 95 % bootstrap interval over questions (each
 * strategy's `rankMetrics`), and a row of the ranking table in the technical and Markdown reports.
 * Never a composite term: the composite reads the top_k metrics, which the cut at top_k equals.
 */
export interface AtKMetric {
  /** Its row in the reports' ranking table, and its name there ("Recall@k"). */
  label: string;
  scale: MetricScale;
  direction: MetricDirection;
  /** One line saying what the number measures at a cut k. */
  definition: string;
  /** Its name in each strategy's `rankMetrics` entries and their `confidenceIntervals` (snake_case in the Experiment JSON). */
  field: string;
  /** Its name in each question's `rankCuts` entries (snake_case in the Experiment JSON). */
  perQuestionField: string;
  /**
   * Its value for one question's ranking at each of `cuts` (ascending), in that order; null where it cannot
   * be measured for that question. All cuts at once, so that a metric built on prefix sums walks the ranking once.
   */
  atCuts: (q: QuestionRanking, cuts: readonly number[]) => Array<number | null>;
}
