import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ChunkevalConfig } from "../config/schema.js";
import { CACHE_FILE, CacheMaintenance, clearLegacyCache, legacyCacheEntries, openCacheDatabase, type CacheGroup } from "../stores/sqlite/cache-repos.js";
import { DATABASE_FILE, openDatabase, type Db } from "../stores/sqlite/database.js";

/** What `chunkeval cache` shows. */
export interface CacheReport {
  path: string;
  /** The file's size on disk, its write-ahead log included. */
  fileBytes: number;
  groups: Array<Omit<CacheGroup, "lastUsedMs"> & { lastUsedAt: string }>;
  /** Entries still in the data directory's database from before `cache_dir` (moved over when their embedder or model is next used). */
  legacyEntries: number;
}

/**
 * Runs `use` over the cache database and, when the data directory has one, the main database
 * (whose cache tables predate `cache_dir`), closing both. Opens nothing else: no model, no vector store.
 */
function withCache<T>(config: Readonly<ChunkevalConfig>, use: (cache: CacheMaintenance, main: Db | undefined) => T): T {
  mkdirSync(config.cacheDir, { recursive: true });
  const path = join(config.cacheDir, CACHE_FILE);
  const db = openCacheDatabase(path);
  const mainPath = join(config.dataDir, DATABASE_FILE);
  let main: Db | undefined;
  try {
    main = existsSync(mainPath) ? openDatabase(mainPath) : undefined;
    return use(new CacheMaintenance(db, path), main);
  } finally {
    main?.close();
    db.close();
  }
}

export function describeCache(config: Readonly<ChunkevalConfig>): CacheReport {
  return withCache(config, (cache, main) => ({
    path: join(config.cacheDir, CACHE_FILE),
    fileBytes: cache.fileBytes(),
    groups: cache.groups().map(({ lastUsedMs, ...group }) => ({ ...group, lastUsedAt: new Date(lastUsedMs).toISOString() })),
    legacyEntries: main ? legacyCacheEntries(main) : 0,
  }));
}

/** Removes every entry, or one embedder's or model's (by spec); returns how many went and the file's size after. */
export function clearCache(config: Readonly<ChunkevalConfig>, only: { embedder?: string; model?: string }): { removed: number; fileBytes: number } {
  return withCache(config, (cache, main) => {
    const removed = cache.clear(only) + (main ? clearLegacyCache(main, only) : 0);
    return { removed, fileBytes: cache.fileBytes() };
  });
}

/** Removes entries unused for `olderThanMs`, then the least recently used down to `maxBytes` of entries. */
export function pruneCache(config: Readonly<ChunkevalConfig>, limits: { olderThanMs?: number; maxBytes?: number }): { removed: number; fileBytes: number } {
  return withCache(config, (cache) => {
    const removed = cache.prune(limits);
    return { removed, fileBytes: cache.fileBytes() };
  });
}
