import type { NegativeControlCounts, QuestionResult } from "./experiment.js";

/**
 * Negative controls: questions the document cannot answer (`"answerable": false` in a
 * questions file). The right answer to one is to abstain, so its answer similarity is 10 when
 * the generator abstained and 0 when it answered; having no reference, it enters no span metric.
 */
export function abstentionScore(answered: boolean): number {
  return answered ? 0 : 10;
}

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The counts for every strategy, or null when the run had no negative control (or answered none: a dry run). */
export function negativeControlCounts(results: Record<string, QuestionResult[]>, dryRun: boolean): Record<string, NegativeControlCounts> | null {
  if (dryRun) return null;
  const out: Record<string, NegativeControlCounts> = {};
  for (const [strategy, list] of Object.entries(results)) {
    const done = list.filter((r) => r.error === null);
    const negatives = done.filter((r) => r.answerable === false);
    if (negatives.length === 0) continue;
    const relevance = (rs: QuestionResult[]) => mean(rs.flatMap((r) => (r.metrics.contextRelevance === null ? [] : [r.metrics.contextRelevance])));
    out[strategy] = {
      questions: negatives.length,
      abstained: negatives.filter((r) => !r.answered).length,
      avgContextRelevance: relevance(negatives),
      avgContextRelevanceAnswerable: relevance(done.filter((r) => r.answerable !== false)),
    };
  }
  return Object.keys(out).length === 0 ? null : out;
}

/** One line per strategy: "recursive abstained on 4 of 5 unanswerable questions (context relevance 6.1 on them, 8.0 on the answerable)". */
export function describeNegativeControls(counts: Record<string, NegativeControlCounts>): string[] {
  const score = (x: number | null) => (x === null ? "n/a" : x.toFixed(1));
  return Object.entries(counts).map(
    ([strategy, c]) =>
      `${strategy} abstained on ${c.abstained} of ${c.questions} unanswerable question(s) ` +
      `(context relevance ${score(c.avgContextRelevance)} on them, ${score(c.avgContextRelevanceAnswerable)} on the answerable)`,
  );
}
