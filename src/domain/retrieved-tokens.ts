import type { QuestionResult } from "./experiment.js";
import { mean } from "./metrics.js";
import { bootstrap, percentileInterval } from "./statistics.js";

/** Mean tokens of retrieved context per question over the questions that did not fail, with its 95 % bootstrap interval. */
export function retrievedTokenFigures(results: Array<Pick<QuestionResult, "error" | "retrievedTokens">>) {
  const counts = results.filter((r) => r.error === null && r.retrievedTokens !== undefined).map((r) => r.retrievedTokens!);
  return {
    avgRetrievedTokens: mean(counts),
    retrievedTokensInterval: percentileInterval(bootstrap(counts.length, (indices) => mean(indices.map((i) => counts[i]!)))),
  };
}
