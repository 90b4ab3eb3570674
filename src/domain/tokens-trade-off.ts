import { pairedDifference } from "./aggregate.js";
import type { AggregateMetrics, QuestionResult } from "./experiment.js";
import { mean } from "./metrics.js";

/** Below this relative difference two strategies retrieve "the same" amount of text, and no trade-off is worth a line. */
const TOKENS_WORTH_NAMING = 0.05;

const meanRecall = (list: QuestionResult[]) => mean(list.filter((r) => r.error === null).map((r) => r.metrics.recall));
const tokens = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * The verdict's trade-off line: among the best strategy and those whose recall the paired
 * bootstrap cannot tell from its own, the one retrieving the fewest tokens per question against
 * the best (or, when the best is the leanest, against the next leanest), e.g. "Similar recall:
 * recursive retrieves 1,378 tokens per question against 2,107 for fixed_size (recall 0.81 against
 * 0.83, not significantly different at 95 %)." Empty when recall was not measured, no other
 * strategy's recall is similar, or the amounts differ by less than 5 %.
 */
export function retrievedTokensTradeOff(best: string, results: Record<string, QuestionResult[]>, aggregates: Record<string, AggregateMetrics>): string {
  const bestList = results[best] ?? [];
  const measured = (s: string) => aggregates[s]?.avgRetrievedTokens != null && aggregates[s]!.avgRecall !== null;
  if (!measured(best)) return "";
  const similar = Object.keys(results)
    .filter((s) => s !== best && measured(s))
    .filter((s) => {
      const n = Math.min(bestList.length, results[s]!.length);
      const change = pairedDifference(bestList.slice(0, n), results[s]!.slice(0, n), meanRecall);
      return change.difference !== null && !change.significant;
    });
  if (similar.length === 0) return "";
  const byTokens = [best, ...similar].sort((a, b) => aggregates[a]!.avgRetrievedTokens! - aggregates[b]!.avgRetrievedTokens! || a.localeCompare(b));
  const lean = byTokens[0]!;
  const other = lean === best ? byTokens[1]! : best;
  const [few, many] = [aggregates[lean]!, aggregates[other]!];
  if (many.avgRetrievedTokens! - few.avgRetrievedTokens! < TOKENS_WORTH_NAMING * many.avgRetrievedTokens!) return "";
  return (
    `Similar recall: ${lean} retrieves ${tokens(few.avgRetrievedTokens!)} tokens per question against ${tokens(many.avgRetrievedTokens!)} for ${other} ` +
    `(recall ${few.avgRecall!.toFixed(2)} against ${many.avgRecall!.toFixed(2)}, not significantly different at 95 %).`
  );
}
