import { hashBytes } from "../domain/hash.js";
import type { EmbeddingCacheRepo } from "../stores/sqlite/cache-repos.js";
import type { Embedder } from "./embedder.js";
import { countTokens } from "../text/tokens.js";

export interface EmbeddingStats {
  /** Texts sent to the model. */
  computed: number;
  /** Texts answered from the SQLite cache (or repeated within a call). */
  cached: number;
  /** Tokens (project tokenizer) of the texts sent to the model: what a hosted embedder bills. */
  computedTokens: number;
  /** Wall time spent waiting on the model. */
  embedSeconds: number;
}

export function hashText(text: string): string {
  return hashBytes(text);
}

/**
 * Wraps an embedder with the (embedder, text hash) cache in SQLite, so re-processing, the
 * sentence embeddings of `semantic` and strategies that share texts never embed a text twice.
 * Misses are embedded in batches of `batchSize`.
 */
export class CachedEmbedder implements Embedder {
  readonly stats: EmbeddingStats = { computed: 0, cached: 0, computedTokens: 0, embedSeconds: 0 };

  constructor(
    private readonly inner: Embedder,
    private readonly cache: EmbeddingCacheRepo,
    private readonly batchSize: number,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const hashes = texts.map(hashText);
    const found = this.cache.getMany(this.name, [...new Set(hashes)]);
    const missing = new Map<string, string>();
    hashes.forEach((h, i) => {
      if (!found.has(h) && !missing.has(h)) missing.set(h, texts[i]!);
    });
    const todo = [...missing.entries()];
    // Batches larger than the provider's keep every worker of a pool busy in one call.
    const step = Math.max(this.batchSize, 1) * 4;
    for (let i = 0; i < todo.length; i += step) {
      const batch = todo.slice(i, i + step);
      const started = performance.now();
      const vectors = await this.inner.embed(batch.map(([, t]) => t), signal);
      this.stats.embedSeconds += (performance.now() - started) / 1000;
      const entries = batch.map(([h], j) => [h, vectors[j]!] as [string, Float32Array]);
      this.cache.putMany(this.name, entries);
      for (const [h, v] of entries) found.set(h, v);
    }
    this.stats.computed += todo.length;
    for (const [, text] of todo) this.stats.computedTokens += countTokens(text);
    this.stats.cached += texts.length - todo.length;
    return hashes.map((h) => found.get(h)!);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
