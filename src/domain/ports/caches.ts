/** Who computes the cached values: `key` is the cache's key (what makes a value what it is), `name` the spec shown to people. */
export interface CacheOwner {
  key: string;
  name: string;
}

export interface CachedCompletion {
  completion: string;
  promptTokens: number;
  completionTokens: number;
}

/** Embeddings by (embedder's cache key, sha256 of the text). */
export interface EmbeddingCache {
  getMany(owner: CacheOwner, hashes: string[]): Promise<Map<string, Float32Array>>;
  putMany(owner: CacheOwner, entries: Array<[string, Float32Array]>): Promise<void>;
}

/** LLM completions by (model's cache key, sha256 of the prompt). */
export interface CompletionCache {
  get(owner: CacheOwner, promptHash: string): Promise<CachedCompletion | null>;
  put(owner: CacheOwner, promptHash: string, value: CachedCompletion): Promise<void>;
}

/** One line of `chunkeval cache`: the entries of one embedder or model (one cache key). */
export interface CacheGroup {
  kind: "embeddings" | "completions";
  /** The embedder or model spec. */
  name: string;
  cacheKey: string;
  entries: number;
  /** The entries' own bytes (vectors or texts, hashes and keys), without the store's overhead. */
  bytes: number;
  lastUsedMs: number;
}

/** Listing, clearing and pruning the caches (`chunkeval cache`). */
export interface CacheMaintenance {
  /** Where the cache is kept (a file path or a URI), as `chunkeval cache` shows it. */
  readonly location: string;
  /** The cache's size in storage. */
  fileBytes(): Promise<number>;
  groups(): Promise<CacheGroup[]>;
  /** Entries still in the metadata store's own tables from before `cache_dir` (moved over when their embedder or model is next used). */
  legacyEntries(): Promise<number>;
  /** Removes every entry, or those of one embedder or model (legacy ones included); returns how many. */
  clear(only?: { embedder?: string; model?: string }): Promise<number>;
  /** Removes entries unused for `olderThanMs`, then the least recently used down to `maxBytes`; returns how many. */
  prune(limits: { olderThanMs?: number; maxBytes?: number }, now?: number): Promise<number>;
  close(): Promise<void>;
}
