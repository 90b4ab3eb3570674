import type { CacheGroup, CacheMaintenance } from "../domain/ports/caches.js";

/** What `chunkeval cache` shows. */
export interface CacheReport {
  path: string;
  /** The file's size on disk, its write-ahead log included. */
  fileBytes: number;
  groups: Array<Omit<CacheGroup, "lastUsedMs"> & { lastUsedAt: string }>;
  /** Entries still in the data directory's database from before `cache_dir` (moved over when their embedder or model is next used). */
  legacyEntries: number;
}

/** Runs `use` over the cache (opened by the composition root: no model, no vector store), then closes it. */
async function withCache<T>(cache: CacheMaintenance, use: (cache: CacheMaintenance) => Promise<T>): Promise<T> {
  try {
    return await use(cache);
  } finally {
    await cache.close();
  }
}

export function describeCache(cache: CacheMaintenance): Promise<CacheReport> {
  return withCache(cache, async () => ({
    path: cache.location,
    fileBytes: await cache.fileBytes(),
    groups: (await cache.groups()).map(({ lastUsedMs, ...group }) => ({ ...group, lastUsedAt: new Date(lastUsedMs).toISOString() })),
    legacyEntries: await cache.legacyEntries(),
  }));
}

/** Removes every entry, or one embedder's or model's (by spec); returns how many went and the file's size after. */
export function clearCache(cache: CacheMaintenance, only: { embedder?: string; model?: string }): Promise<{ removed: number; fileBytes: number }> {
  return withCache(cache, async () => {
    const removed = await cache.clear(only);
    return { removed, fileBytes: await cache.fileBytes() };
  });
}

/** Removes entries unused for `olderThanMs`, then the least recently used down to `maxBytes` of entries. */
export function pruneCache(cache: CacheMaintenance, limits: { olderThanMs?: number; maxBytes?: number }): Promise<{ removed: number; fileBytes: number }> {
  return withCache(cache, async () => {
    const removed = await cache.prune(limits);
    return { removed, fileBytes: await cache.fileBytes() };
  });
}
