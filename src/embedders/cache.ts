import { hashBytes } from "../domain/hash.js";
import type { CacheOwner, EmbeddingCache } from "../domain/ports/caches.js";
import type { Embedder } from "./embedder.js";
import { countTokensOffThread } from "../text/count-off-thread.js";
import { yieldToEventLoop } from "../domain/concurrency.js";

export interface EmbeddingStats {
  /** Texts sent to the model. */
  computed: number;
  /** Texts answered from the SQLite cache (or repeated within a call). */
  cached: number;
  /** Tokens (project tokenizer) of the texts sent to the model: what a hosted embedder bills. */
  computedTokens: number;
  /** Wall time spent waiting on the model. */
  embedSeconds: number;
  /** Texts computed whose vectors could not be written to the cache (its database busy or unwritable): the next run computes them again. */
  notCached: number;
}

export function hashText(text: string): string {
  return hashBytes(text);
}

/** After a cache write failed, how long the next ones are skipped (counted as not cached). */
const CACHE_WRITE_PAUSE_MS = 10_000;

/**
 * Hashes looked up in the cache per read. A warm run reads tens of thousands of vectors, and
 * SQLite reads on the main thread: in slices, with the event loop running between them, Ctrl-C
 * and progress timers are heard within a slice's read (about 50 ms for 1,000 vectors of 512).
 */
const CACHE_LOOKUP_SLICE = 1_000;

const ZERO_STATS: EmbeddingStats = { computed: 0, cached: 0, computedTokens: 0, embedSeconds: 0, notCached: 0 };

/**
 * Texts (by hash) whose vectors a call is computing, shared by every metered view. A computation
 * that ends while a cache lookup is under way stays listed until no lookup is left: that lookup
 * may have read the cache before the vector was written (a store with several connections,
 * PostgreSQL, lets a read overtake a write), and finds the vector here instead of embedding again.
 */
class InFlight {
  readonly vectors = new Map<string, Promise<Float32Array>>();
  /** Until when cache writes are skipped after one failed (shared by every metered view). */
  cacheWritesPausedUntil = 0;
  private lookups = 0;
  private ended: Array<[string, Promise<Float32Array>]> = [];

  /** Runs a cache read and what decides on its result, with computations ending meanwhile kept listed. */
  async lookup<T>(read: () => Promise<T>): Promise<T> {
    this.lookups += 1;
    try {
      return await read();
    } finally {
      this.lookups -= 1;
      if (this.lookups === 0) {
        for (const [h, promise] of this.ended) this.forget(h, promise);
        this.ended = [];
      }
    }
  }

  end(h: string, promise: Promise<Float32Array>): void {
    if (this.lookups > 0) this.ended.push([h, promise]);
    else this.forget(h, promise);
  }

  private forget(h: string, promise: Promise<Float32Array>): void {
    if (this.vectors.get(h) === promise) this.vectors.delete(h);
  }
}

/**
 * Wraps an embedder with the (embedder's cache key, text hash) cache of the metadata store, so re-processing, the
 * sentence embeddings of `semantic` and strategies or variants that share texts never embed a
 * text twice. Misses are embedded in batches of `batchSize`. A text being embedded by one call
 * is awaited by concurrent calls that need it too (variants processed side by side), not sent again.
 */
export class CachedEmbedder implements Embedder {
  readonly stats: EmbeddingStats = { ...ZERO_STATS };
  private readonly inflight: InFlight;

  constructor(
    private readonly inner: Embedder,
    private readonly cache: EmbeddingCache,
    private readonly batchSize: number,
    private readonly parent?: CachedEmbedder,
  ) {
    this.inflight = parent?.inflight ?? new InFlight();
  }

  get name(): string {
    return this.inner.name;
  }

  private get owner(): CacheOwner {
    return { key: this.inner.cacheKey ?? this.inner.name, name: this.inner.name };
  }

  /**
   * A view sharing the model, the cache and the texts in flight that meters its own use in its
   * `stats` (and still adds it to this one's): one run's or one variant's embeddings, counted
   * without diffing counters other runs also move (ARCHITECTURE convention 15).
   */
  metered(): CachedEmbedder {
    return new CachedEmbedder(this.inner, this.cache, this.batchSize, this);
  }

  /** The texts among these (distinct) whose vectors the cache does not hold: what embedding them would compute. */
  async uncached(texts: string[]): Promise<string[]> {
    const distinct = [...new Map(texts.map((t) => [hashText(t), t])).entries()];
    const found = await this.cached(distinct.map(([h]) => h));
    return distinct.filter(([h]) => !found.has(h)).map(([, t]) => t);
  }

  /**
   * Seconds the model takes to embed these texts, past the cache and storing nothing: a rate
   * probe (the sweep estimate's), which must reach the model even for texts already cached.
   */
  async timeModel(texts: string[], signal?: AbortSignal): Promise<number> {
    const started = performance.now();
    await this.inner.embed(texts, signal);
    return (performance.now() - started) / 1000;
  }

  /** The vectors the cache holds for these hashes, read CACHE_LOOKUP_SLICE at a time. */
  private async cached(hashes: string[]): Promise<Map<string, Float32Array>> {
    if (hashes.length <= CACHE_LOOKUP_SLICE) return this.cache.getMany(this.owner, hashes);
    const found = new Map<string, Float32Array>();
    for (let at = 0; at < hashes.length; at += CACHE_LOOKUP_SLICE) {
      if (at > 0) await yieldToEventLoop();
      for (const [h, vector] of await this.cache.getMany(this.owner, hashes.slice(at, at + CACHE_LOOKUP_SLICE))) found.set(h, vector);
    }
    return found;
  }

  /** Counts embeddings done for this view elsewhere (a benchmark's processing unit another process ran), as if done here. */
  record(delta: EmbeddingStats): void {
    this.count(delta);
  }

  private count(delta: EmbeddingStats): void {
    this.stats.computed += delta.computed;
    this.stats.cached += delta.cached;
    this.stats.computedTokens += delta.computedTokens;
    this.stats.notCached += delta.notCached;
    this.stats.embedSeconds += delta.embedSeconds;
    this.parent?.count(delta);
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const hashes = texts.map(hashText);
    const missing = new Map<string, string>();
    const elsewhere = new Map<string, [Promise<Float32Array>, string]>();
    const settle = new Map<string, { resolve(v: Float32Array): void; reject(e: unknown): void; promise: Promise<Float32Array> }>();
    // What the cache misses is checked against the texts in flight, and claimed, before the lookup ends.
    const found = await this.inflight.lookup(async () => {
      const found = await this.cached([...new Set(hashes)]);
      hashes.forEach((h, i) => {
        if (found.has(h) || missing.has(h) || elsewhere.has(h)) return;
        const pending = this.inflight.vectors.get(h);
        if (pending) elsewhere.set(h, [pending, texts[i]!]);
        else missing.set(h, texts[i]!);
      });
      for (const [h] of missing) {
        let handles!: { resolve(v: Float32Array): void; reject(e: unknown): void };
        const promise = new Promise<Float32Array>((resolve, reject) => (handles = { resolve, reject }));
        promise.catch(() => undefined); // a waiter that sees the failure recomputes; nobody else must hear it
        settle.set(h, { ...handles, promise });
        this.inflight.vectors.set(h, promise);
      }
      return found;
    });
    const todo = [...missing.entries()];
    const delta = { ...ZERO_STATS };
    try {
      // Batches larger than the provider's keep every worker of a pool busy in one call.
      const step = Math.max(this.batchSize, 1) * 4;
      for (let i = 0; i < todo.length; i += step) {
        const batch = todo.slice(i, i + step);
        const started = performance.now();
        const vectors = await this.inner.embed(
          batch.map(([, t]) => t),
          signal,
        );
        delta.embedSeconds += (performance.now() - started) / 1000;
        const entries = batch.map(([h], j) => [h, vectors[j]!] as [string, Float32Array]);
        // Best effort: the vectors are computed and used whatever the cache says. Another process may
        // hold its write lock (`cache prune`/`clear` compacting it), or its disk be full; after a
        // failed write the next ones are skipped for a while rather than each waiting again.
        if (Date.now() < this.inflight.cacheWritesPausedUntil) delta.notCached += entries.length;
        else
          await this.cache.putMany(this.owner, entries).catch(() => {
            delta.notCached += entries.length;
            this.inflight.cacheWritesPausedUntil = Date.now() + CACHE_WRITE_PAUSE_MS;
          });
        for (const [h, v] of entries) {
          found.set(h, v);
          settle.get(h)!.resolve(v);
        }
      }
    } catch (error) {
      for (const s of settle.values()) s.reject(error);
      throw error;
    } finally {
      for (const [h] of todo) this.inflight.end(h, settle.get(h)!.promise);
      delta.computed += todo.filter(([h]) => found.has(h)).length;
      delta.computedTokens += await countTokensOffThread(todo.filter(([h]) => found.has(h)).map(([, text]) => text));
      this.count(delta);
    }
    for (const [h, [pending, text]] of elsewhere) {
      // The call computing it failed (cancelled, say): this call still needs the vector.
      found.set(h, await pending.catch(async () => (await this.embed([text], signal))[0]!));
    }
    this.count({ ...ZERO_STATS, cached: texts.length - todo.length });
    return hashes.map((h) => found.get(h)!);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
