import { answerableCount, pairedDifference } from "./aggregate.js";
import { listWords } from "./list-words.js";
import type { AggregateMetrics, QuestionResult } from "./experiment.js";
import { mean } from "./metrics.js";
import { MIN_PAIRED_QUESTIONS } from "./statistics.js";

/** Below this relative difference two strategies retrieve "the same" amount of text, and no trade-off is worth a line. */
const TOKENS_WORTH_NAMING = 0.05;

const meanRecall = (list: QuestionResult[]) => mean(list.filter((r) => r.error === null).map((r) => r.metrics.recall));
const tokens = (n: number) => Math.round(n).toLocaleString("en-US");
/** How the line opens: what the questions showed, never that the recalls are "similar". */
const NOT_SHOWN = "Fewer tokens, recall not shown to differ";

/**
 * The verdict's trade-off line, over the strategies whose recall the paired bootstrap cannot tell
 * from the best's. When one of them retrieves at least 5 % fewer tokens per question than the
 * best, the leanest is named against the best ("Fewer tokens, recall not shown to differ: recursive
 * retrieves 1,378 tokens per question against 2,107 for fixed_size (recall 0.53 vs 0.55 over 20
 * questions, within noise at 95 %)."); otherwise the best is named against those retrieving at least
 * 5 % more, with their recalls. Never "similar": on a small set, recall 0.40 against 0.70 can be
 * within noise, and the line says only that the questions did not show a difference, with the
 * figures and the number of questions. Empty when recall was not measured, or no strategy whose
 * recall is not shown to differ retrieves a different amount of text, and with fewer answerable
 * questions than the verdict's minimum: then nothing is significant.
 */
export function retrievedTokensTradeOff(best: string, results: Record<string, QuestionResult[]>, aggregates: Record<string, AggregateMetrics>): string {
  const bestList = results[best] ?? [];
  const measured = (s: string) => aggregates[s]?.avgRetrievedTokens != null && aggregates[s]!.avgRecall !== null;
  if (!measured(best) || answerableCount(bestList) < MIN_PAIRED_QUESTIONS) return "";
  const similar = Object.keys(results)
    .filter((s) => s !== best && measured(s))
    .filter((s) => {
      const n = Math.min(bestList.length, results[s]!.length);
      const change = pairedDifference(bestList.slice(0, n), results[s]!.slice(0, n), meanRecall);
      return change.difference !== null && !change.significant;
    });
  const tokensOf = (s: string) => aggregates[s]!.avgRetrievedTokens!;
  const over = `over ${answerableCount(bestList)} questions`;
  const own = tokensOf(best);
  const leaner = similar.filter((s) => tokensOf(s) <= (1 - TOKENS_WORTH_NAMING) * own).sort((a, b) => tokensOf(a) - tokensOf(b) || a.localeCompare(b));
  if (leaner.length > 0) {
    const lean = leaner[0]!;
    return (
      `${NOT_SHOWN}: ${lean} retrieves ${tokens(tokensOf(lean))} tokens per question against ${tokens(own)} for ${best} ` +
      `(recall ${aggregates[lean]!.avgRecall!.toFixed(2)} vs ${aggregates[best]!.avgRecall!.toFixed(2)} ${over}, within noise at 95 %).`
    );
  }
  const heavier = similar.filter((s) => tokensOf(s) * (1 - TOKENS_WORTH_NAMING) >= own).sort((a, b) => tokensOf(a) - tokensOf(b) || a.localeCompare(b));
  if (heavier.length === 0) return "";
  const against = listWords(heavier.map((s) => `${tokens(tokensOf(s))} for ${s}`));
  // The recalls are printed here too: on a small set "within noise" can hide a gap as wide as 1.00 against 0.75.
  const recalls = listWords(heavier.map((s) => `${aggregates[s]!.avgRecall!.toFixed(2)} for ${s}`));
  return (
    `${NOT_SHOWN}: ${best} retrieves ${tokens(own)} tokens per question against ${against} ` +
    `(recall ${aggregates[best]!.avgRecall!.toFixed(2)} vs ${recalls} ${over}, within noise at 95 %).`
  );
}
