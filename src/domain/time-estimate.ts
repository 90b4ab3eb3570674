/**
 * The time of a bench in parts: the embeddings the cache does not hold at a rate measured now,
 * the question runs (retrieval, answer, judging of texts already embedded) at a rate measured in
 * an earlier benchmark or else an assumed one, the chat-model calls at an assumed duration, and
 * the scoring of each variant after the runs, timed now.
 */
export interface TimeParts {
  /** Tokens to embed that the cache does not hold: chunks of the indexes to build, and the questions, expected answers and document sentences not cached. */
  newEmbeddingTokens: number;
  /** Seconds per token measured on this embedder after its load and a first batch; null when nothing needs embedding (nothing is measured). */
  embedSecondsPerToken: number | null;
  /** What the variants' other embedders (`@embedder=`, `--embedders`) embed: tokens the cache does not hold, and seconds at their kind's usual rate. */
  otherEmbedders?: { tokens: number; seconds: number };
  runs: number;
  /** Seconds of one question run's local work (retrieval, and a local answer and judging). */
  runSeconds: number;
  /** Where runSeconds comes from: the median of the newest comparable benchmark here, or the assumed rates. */
  runRate: "measured" | "assumed";
  /** Chat-model calls priced at the cost model's LLM_CALL_SECONDS each (contextualisation, and answers and judging unless a measured run holds them). */
  llmCalls: number;
  variants: number;
  /** Seconds of one variant's scoring after the runs (means, bootstrap intervals, comparison with the best), measured now. */
  scoringSeconds: number;
}
