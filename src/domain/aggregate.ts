import type { AggregateMetrics, QuestionResult, StrategyComparison } from "./experiment.js";
import { metricValue, type MetricDefinition } from "./metric-catalogue.js";
import { addUsage, mean, ZERO_USAGE } from "./metrics.js";
import { compositeContributions, compositeScore, qualityMeans, questionScore, type QualityMeans } from "./scoring.js";
import type { MetricRegistry } from "./metric-registry/registry.js";
import { type ScoredQuestion } from "./metric-registry/metric.js";
import { standardDeviation } from "./metrics.js";
import {
  bootstrap,
  bootstrapMeans,
  bootstrapPValue,
  columnMean,
  resampleColumn,
  CONFIDENCE_LEVEL,
  MIN_PAIRED_QUESTIONS,
  percentileInterval,
} from "./statistics.js";
import { questionsNeededClause, questionsNeededFromBootstrap } from "./power.js";
import { aggregateRankCuts } from "./rank-metrics.js";
import { listWords } from "./list-words.js";
import { yieldToEventLoop } from "./concurrency.js";

export interface AggregateOptions {
  /** The composition's metrics: what is averaged, given an interval and summed into the composite. */
  metrics: MetricRegistry;
  weights: Record<string, number>;
  hallucinationThreshold: number;
  costUsd: number;
  /**
   * Metrics the run's configuration cannot measure, keyed by metric, with the reason (for
   * example faithfulness when answers are copied from the context). They are null whatever
   * the judge said, and drop out of the composite.
   */
  unmeasurable: Record<string, string>;
}

type Scores = QualityMeans & { compositeScore: number | null };

/** How a set of question results is scored: the aggregate's options without the run's cost. */
export type ScoringOptions = Omit<AggregateOptions, "costUsd">;

/** The metric means and composite of a set of question results: what a strategy scored. */
export function scoresOf(results: ScoredQuestion[], options: ScoringOptions): Scores {
  const means = qualityMeans(results, options.hallucinationThreshold, options.metrics);
  for (const definition of options.metrics.all) {
    if (definition.key in options.unmeasurable && definition.field in means) (means as Record<string, number | null>)[definition.field] = null;
  }
  return { ...means, compositeScore: compositeScore(means, options.weights, options.metrics.composite) };
}

/** Scores a resample of a fixed list of question results, given as positions in it (repeats allowed). */
export type ResampleScorer = (indices: readonly number[]) => Scores;

/**
 * What scoresOf gives for `indices.map((i) => results[i])`, to the last bit, without reading the
 * question records again: each plain mean's per-question values are read once into a column
 * (NaN where the question failed or has no value), so a resample only adds up, in the same order
 * as mean() would (a metric's own `questionValue` too). The bootstrap scores 2,000 resamples per strategy and per comparison, and
 * recomputing every metric from the records was most of a benchmark's scoring time.
 */
export function resampleScorer(results: ScoredQuestion[], options: ScoringOptions): ResampleScorer {
  const metrics = options.metrics.quality;
  const terms = options.metrics.composite;
  const unmeasured = new Set(options.metrics.all.filter((d) => d.key in options.unmeasurable).map((d) => d.field));
  const ok = results.map((r) => r.error === null);
  const columns = metrics.map((metric) => resampleColumn(results.map((r, i) => (ok[i] ? questionScore(metric, r, options.hallucinationThreshold) : null))));
  return (indices) => {
    const means: Record<string, number | null> = {};
    metrics.forEach((metric, at) => {
      means[metric.field] = unmeasured.has(metric.field) ? null : columnMean(columns[at]!, indices);
    });
    return { ...(means as unknown as QualityMeans), compositeScore: compositeScore(means, options.weights, terms) };
  };
}

/** Why a metric is null when the configuration did not already say: read from the results (a metric may give its own reason). */
function reasonFromResults(definition: MetricDefinition, results: QuestionResult[], missing: Record<string, string>): string {
  const ok = results.filter((r) => r.error === null);
  if (results.length > 0 && ok.length === 0) return `every question failed (${results.length})`;
  if (definition.needsReferences && ok.every((r) => r.references.length === 0)) return "the questions have no reference excerpts";
  return definition.missingReason?.(ok, missing) ?? "no question produced a value";
}

/**
 * One strategy's aggregate: the metric means over its questions (failed questions counted, not
 * averaged), the composite and each metric's share of it, a 95 % bootstrap interval over
 * questions for every measured metric, and the reason for every metric that is null.
 */
export function aggregate(results: QuestionResult[], options: AggregateOptions): AggregateMetrics {
  const scores = scoresOf(results, options);
  const resampled = bootstrap(results.length, resampleScorer(results, options));
  const confidenceIntervals: Record<string, [number, number] | null> = {};
  for (const definition of options.metrics.all) {
    if (!(definition.field in scores) || scores[definition.field as keyof Scores] === null) continue;
    confidenceIntervals[definition.key] = percentileInterval(resampled.map((s) => s[definition.field as keyof Scores] ?? null));
  }
  const latencies = results.map((r) => r.latency.totalSeconds);
  const latencyMeans = bootstrapMeans(latencies);
  const aggregateMetrics: AggregateMetrics = {
    ...scores,
    totalQuestions: results.length,
    failedQuestions: results.filter((r) => r.error !== null).length,
    compositeContributions: compositeContributions(scores, options.weights, options.metrics.composite),
    confidenceIntervals,
    missing: {},
    avgLatencySeconds: mean(latencies),
    latencyInterval: percentileInterval(latencyMeans),
    totalLatencySeconds: latencies.reduce((a, b) => a + b, 0),
    tokens: results.reduce((u, r) => addUsage(addUsage(u, r.answerTokens), r.judgeTokens), ZERO_USAGE),
    costUsd: options.costUsd,
    rankMetrics: aggregateRankCuts(results, options.metrics.atK),
    // The registered metric's interval, also under the name the Experiment JSON gave it before it was registered.
    retrievedTokensInterval: confidenceIntervals.avg_retrieved_tokens ?? null,
  };
  // Faithfulness first: the hallucination rate's reason is faithfulness's.
  const missing: Record<string, string> = {};
  const all = options.metrics.all;
  const faithfulnessFirst = [...all.filter((m) => m.key === "avg_faithfulness"), ...all.filter((m) => m.key !== "avg_faithfulness")];
  for (const definition of faithfulnessFirst) {
    if (metricValue(options.metrics, aggregateMetrics, definition.key) !== null) continue;
    missing[definition.key] = options.unmeasurable[definition.key] ?? reasonFromResults(definition, results, missing);
  }
  aggregateMetrics.missing = Object.fromEntries(all.filter((m) => m.key in missing).map((m) => [m.key, missing[m.key]!]));
  return aggregateMetrics;
}

/**
 * The best strategy's composite against every other strategy's, paired over the same questions:
 * each bootstrap resample draws one set of question positions and scores both strategies on it,
 * so question difficulty, which both share, cancels out of the difference.
 */
export function compareWithBest(results: Record<string, QuestionResult[]>, best: string, options: ScoringOptions): StrategyComparison[] {
  return othersThanBest(results, best).map(([strategy, other]) => compareOne(results[best] ?? [], strategy, other, options));
}

/**
 * compareWithBest in turns: the event loop runs between two comparisons (each a bootstrap of its
 * own), so a run that scores many strategies or groups still hears Ctrl-C and its timers;
 * `afterTurn` runs after each turn (a caller's check that the run was not cancelled meanwhile).
 */
export async function compareWithBestInTurns(
  results: Record<string, QuestionResult[]>,
  best: string,
  options: ScoringOptions,
  afterTurn: () => void = () => undefined,
): Promise<StrategyComparison[]> {
  const comparisons: StrategyComparison[] = [];
  for (const [strategy, other] of othersThanBest(results, best)) {
    await yieldToEventLoop();
    afterTurn();
    comparisons.push(compareOne(results[best] ?? [], strategy, other, options));
  }
  return comparisons;
}

const othersThanBest = (results: Record<string, QuestionResult[]>, best: string) => Object.entries(results).filter(([strategy]) => strategy !== best);

function compareOne(bestResults: QuestionResult[], strategy: string, other: QuestionResult[], options: ScoringOptions): StrategyComparison {
  const composite = (list: QuestionResult[]) => {
    const score = resampleScorer(list, options);
    return (indices: readonly number[]) => score(indices).compositeScore;
  };
  const n = Math.min(bestResults.length, other.length);
  const { standardError, ...change } = pairedResampleDifference(n, composite(bestResults.slice(0, n)), composite(other.slice(0, n)));
  // Negative controls pad the pairs without asking anything of retrieval: the minimum counts answerable questions only.
  const answerableQuestions = answerableCount(bestResults.slice(0, n));
  const significant = change.significant && answerableQuestions >= MIN_PAIRED_QUESTIONS;
  // The estimate is in questions like these; said in answerable ones, as the minimum is (negative controls come on top, in the same share).
  const needed = significant ? null : questionsNeededFromBootstrap(change.difference, standardError, n);
  // With no answerable question there is no spread of answers to plan from: no estimate.
  const questionsNeeded = needed === null || answerableQuestions === 0 ? null : Math.max(MIN_PAIRED_QUESTIONS, Math.ceil((needed * answerableQuestions) / n));
  return { strategy, metric: "composite_score" as const, ...change, significant, answerableQuestions, questionsNeeded };
}

/** The questions of a run that the document can answer (negative controls, `answerable: false`, left out). */
export const answerableCount = (results: Array<Pick<QuestionResult, "answerable">>) => results.filter((r) => r.answerable !== false).length;

/** A statistic's difference between two runs over the same questions, with its paired bootstrap interval. */
export interface PairedDifference {
  /** a minus b over all the questions. */
  difference: number | null;
  confidenceInterval: [number, number] | null;
  pValue: number | null;
  /** True when the interval excludes zero and at least MIN_PAIRED_QUESTIONS were paired. */
  significant: boolean;
  questions: number;
  /** Standard deviation of the bootstrap differences: the difference's standard error (null when no resample could be scored). */
  standardError: number | null;
}

/**
 * `statistic(a) - statistic(b)` where a[i] and b[i] are the same question: each bootstrap
 * resample draws one set of question positions and computes the statistic on both sides, so
 * question difficulty, which both share, cancels out of the difference.
 */
export function pairedDifference<T>(a: T[], b: T[], statistic: (list: T[]) => number | null): PairedDifference {
  if (a.length !== b.length) throw new Error(`paired lists differ in length (${a.length} and ${b.length})`);
  return pairedResampleDifference(
    a.length,
    (indices) => statistic(indices.map((i) => a[i]!)),
    (indices) => statistic(indices.map((i) => b[i]!)),
  );
}

/**
 * pairedDifference over n paired questions whose two statistics score a resample given as
 * question positions (as a ResampleScorer does), so each side reads its questions once.
 */
export function pairedResampleDifference(
  n: number,
  statisticA: (indices: readonly number[]) => number | null,
  statisticB: (indices: readonly number[]) => number | null,
): PairedDifference {
  const all = Array.from({ length: n }, (_, i) => i);
  const valueA = statisticA(all);
  const valueB = statisticB(all);
  const differences = bootstrap(n, (indices) => {
    const x = statisticA(indices);
    const y = statisticB(indices);
    return x === null || y === null ? null : x - y;
  });
  const interval = percentileInterval(differences);
  return {
    difference: valueA === null || valueB === null ? null : valueA - valueB,
    confidenceInterval: interval,
    pValue: bootstrapPValue(differences),
    significant: n >= MIN_PAIRED_QUESTIONS && interval !== null && (interval[0] > 0 || interval[1] < 0),
    questions: n,
    standardError: standardDeviation(differences),
  };
}

/**
 * The recommendation in words, with its confidence: which leads are significant at the
 * confidence level and which are within noise.
 */
export function verdictSentence(best: string, bestComposite: number | null, comparisons: StrategyComparison[]): string {
  const level = `${Math.round(CONFIDENCE_LEVEL * 100)} %`;
  if (bestComposite === null) return `No strategy could be scored: none of the composite's metrics could be measured; ${best} is listed first by name only.`;
  if (comparisons.length === 0) return `${best} was the only strategy benchmarked, so there is nothing to compare it with.`;
  const noise = comparisons.filter((c) => !c.significant).map((c) => c.strategy);
  const clear = comparisons.filter((c) => c.significant).map((c) => c.strategy);
  const parts: string[] = [];
  if (noise.length > 0) {
    const exact = comparisons.filter((c) => !c.significant && c.difference !== null && Math.abs(c.difference) <= 1e-9).map((c) => c.strategy);
    // The questions the comparison paired (a run stopped early pairs fewer than were asked).
    const paired = [...new Set(comparisons.filter((c) => !c.significant).map((c) => c.questions))].sort((a, b) => a - b);
    const questions = paired.length === 1 ? `${paired[0]}` : `${paired[0]}-${paired[paired.length - 1]}`;
    const fewestAnswerable = Math.min(...comparisons.filter((c) => !c.significant).map((c) => c.answerableQuestions ?? c.questions));
    const tooFew =
      fewestAnswerable < MIN_PAIRED_QUESTIONS
        ? `; at least ${MIN_PAIRED_QUESTIONS} answerable questions are needed to tell, negative controls not counted, and ${fewestAnswerable} were asked`
        : "";
    const tied = exact.length > 0 ? `; tied exactly with ${listWords(exact)}` : "";
    parts.push(`its lead over ${listWords(noise)} is not significant at ${level} with ${questions} questions (within noise${tooFew}${tied})`);
    parts.push(questionsNeededClause(comparisons.filter((c) => !c.significant)));
  }
  if (clear.length > 0) parts.push(`its lead over ${listWords(clear)} is significant at ${level}`);
  // "scored highest", never "is best": whether that is a recommendation is the headline's to say
  // (verdict-basis.ts), and a lead within noise or on template questions is not one.
  return `${best} scored highest; ${parts.join("; ")}.`;
}
