import { CONFIDENCE_LEVEL, MIN_PAIRED_QUESTIONS } from "./statistics.js";

/** The power the question estimate plans for: the chance that a lead of the observed size turns out significant. */
export const PLANNED_POWER = 0.8;
/** Past this many questions the estimate is "no realistic number": nobody writes that many for one comparison. */
export const REALISTIC_QUESTIONS = 10_000;

/** Standard normal quantile (Acklam's rational approximation, relative error under 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/**
 * About how many paired questions a two-sided test at CONFIDENCE_LEVEL needs to find a mean
 * difference of `meanDifference` significant with PLANNED_POWER, when the per-question differences
 * have standard deviation `sdDifference`: the standard normal-approximation sample size
 * n = ((z_{1-α/2} + z_power) · sd / mean)², never fewer than MIN_PAIRED_QUESTIONS (fewer never
 * make a lead significant here). Null when no realistic number would: the difference is zero, or
 * the estimate is past REALISTIC_QUESTIONS.
 */
export function questionsNeeded(meanDifference: number, sdDifference: number): number | null {
  if (!Number.isFinite(meanDifference) || !Number.isFinite(sdDifference) || Math.abs(meanDifference) <= 1e-9) return null;
  const z = normalQuantile(1 - (1 - CONFIDENCE_LEVEL) / 2) + normalQuantile(PLANNED_POWER);
  const n = Math.ceil(((z * sdDifference) / Math.abs(meanDifference)) ** 2);
  if (n > REALISTIC_QUESTIONS) return null;
  return Math.max(MIN_PAIRED_QUESTIONS, n);
}

/**
 * The same estimate from a paired bootstrap: its standard error over `questions` questions is
 * sd / √questions, so the per-question differences' standard deviation is se · √questions. This
 * works for any statistic the bootstrap compared (a composite of means included), not only a mean.
 */
export function questionsNeededFromBootstrap(difference: number | null, standardError: number | null, questions: number): number | null {
  if (difference === null || standardError === null || questions < 1) return null;
  return questionsNeeded(difference, standardError * Math.sqrt(questions));
}

/** 49 → "about 49", 1234 → "about 1,300": two significant figures, rounded up, since the estimate is a planning figure. */
export function aboutQuestions(n: number): string {
  const step = n < 100 ? 1 : 10 ** (Math.floor(Math.log10(n)) - 1);
  return `about ${(Math.ceil(n / step) * step).toLocaleString("en-US")}`;
}

/**
 * The clause a verdict adds for the comparisons it could not call: how many questions would
 * tell each one, or that no realistic number would (over REALISTIC_QUESTIONS, or no difference), e.g.
 * "about 50 questions would tell it from recursive; no realistic number of questions would tell it
 * from fixed_size (at 95 % with 80 % power, from the spread of the paired differences)".
 */
export function questionsNeededClause(
  comparisons: Array<{ strategy: string; questionsNeeded?: number | null; questions?: number; answerableQuestions?: number }>,
): string {
  if (comparisons.length === 0) return "";
  // With negative controls in the set the estimate counts answerable questions, and says so.
  const withNegatives = comparisons.some((c) => c.answerableQuestions !== undefined && c.questions !== undefined && c.answerableQuestions < c.questions);
  const noun = withNegatives ? "answerable questions (negative controls besides, in the same share)" : "questions";
  const byEstimate = new Map<string, string[]>();
  for (const c of comparisons) {
    const words = c.questionsNeeded == null ? "no realistic number of questions" : `${aboutQuestions(c.questionsNeeded)} ${noun}`;
    byEstimate.set(words, [...(byEstimate.get(words) ?? []), c.strategy]);
  }
  const parts = [...byEstimate].map(([words, names]) => `${words} would tell it from ${names.join(", ")}`);
  const level = `${Math.round(CONFIDENCE_LEVEL * 100)} % with ${Math.round(PLANNED_POWER * 100)} % power`;
  return `${parts.join("; ")} (at ${level}, from the spread of the paired differences)`;
}
