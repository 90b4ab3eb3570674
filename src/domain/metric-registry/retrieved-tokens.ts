import type { Metric } from "./metric.js";

/**
 * Tokens of retrieved context per question: what the answer reads, so what it costs. Not in the composite (more
 * context is neither better nor worse retrieval); it breaks composite ties (`bestStrategy`) and names the leaner
 * of strategies whose recall the questions do not show to differ, in the verdict (`tokens-trade-off.ts`). Counted where the chunks are retrieved
 * (each question's `retrievedTokens`); experiments from before it was recorded have none.
 */
export const retrievedTokens: Metric = {
  key: "avg_retrieved_tokens",
  label: "tokens/question",
  scale: "tokens",
  direction: "lower",
  field: "avgRetrievedTokens",
  definition: "mean tokens of retrieved context the answer reads per question (the first top_k chunks)",
  questionValue: (r) => r.retrievedTokens ?? null,
};
