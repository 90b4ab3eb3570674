import type { TokenUsage } from "../domain/types.js";

/** USD per million tokens (input, output). Public list prices; edit here when they change. */
export const PRICE_TABLE: Record<string, { input: number; output: number }> = {
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1": { input: 2, output: 8 },
  "text-embedding-3-small": { input: 0.02, output: 0 },
  "text-embedding-3-large": { input: 0.13, output: 0 },
};

/** The hosted models a run is also priced on, so offline runs show what they would cost. */
export const REFERENCE_CHAT_MODEL = "gpt-4o-mini";
export const REFERENCE_EMBEDDING_MODEL = "text-embedding-3-small";

/**
 * Cost of token usage for a provider spec: local providers (`use`, `hash`, `hf:…`,
 * `extractive`, `embedding`) cost 0; `openai:<model>` is priced from PRICE_TABLE, and a model
 * the table does not know is priced at 0 (so a local OpenAI-compatible server costs nothing).
 */
export function costOf(spec: string, usage: TokenUsage): number {
  const model = spec.startsWith("openai:") ? spec.slice("openai:".length) : null;
  const price = model ? PRICE_TABLE[model] : undefined;
  return price ? (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1e6 : 0;
}

export function referenceCost(model: string, usage: TokenUsage): number {
  return costOf(`openai:${model}`, usage);
}
