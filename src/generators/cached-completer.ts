import { hashBytes } from "../domain/hash.js";
import { ZERO_USAGE } from "../domain/metrics.js";
import { ValidationError } from "../errors.js";
import type { CompletionCache } from "../domain/ports/caches.js";
import type { Completion, Generator } from "./generator.js";

/**
 * A completion function: `accept` decides whether a reply may be cached, so a reply the caller
 * cannot use is not kept and a later run asks the model again.
 */
export type CompleteFn = (prompt: string, signal?: AbortSignal, accept?: (text: string) => boolean) => Promise<Completion>;

/**
 * Wraps a chat model with the (model's cache key, prompt hash) completion cache in SQLite, as CachedEmbedder
 * wraps an embedder: identical prompts (contexts, judge verdicts) are answered from the cache.
 * A cached reply was paid for by an earlier run, so it reports zero usage: what a caller is
 * billed is the usage its calls return (bench meters its own calls).
 */
export function cachedCompleter(model: Generator, cache: CompletionCache): CompleteFn {
  if (!model.isLlm || !model.complete) throw new ValidationError(`${model.name} is not a language model`);
  const complete = model.complete.bind(model);
  const owner = { key: model.cacheKey ?? model.name, name: model.name };
  return async (prompt, signal, accept) => {
    const hash = hashBytes(prompt);
    const cached = await cache.get(owner, hash);
    if (cached) return { text: cached.completion, usage: ZERO_USAGE, cached: true };
    const result = await complete(prompt, signal);
    // Best effort, as embeddings: another process may hold the cache's write lock (compacting it).
    if (!accept || accept(result.text))
      await cache
        .put(owner, hash, { completion: result.text, promptTokens: result.usage.promptTokens, completionTokens: result.usage.completionTokens })
        .catch(() => undefined);
    return result;
  };
}
