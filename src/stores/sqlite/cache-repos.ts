import { statSync } from "node:fs";
import { openDatabase, type Db } from "./database.js";

/** The cache's file in `cache_dir`. */
export const CACHE_FILE = "cache.sqlite";

/**
 * The cache database's migrations (append only, like the main database's). `cache_key` is what
 * makes a value what it is (model, its version, dimensions, normalisation: Embedder.cacheKey),
 * so a cache folder restored from another machine serves only what this machine would compute;
 * `embedder`/`model` is the spec people know, for `chunkeval cache`. `last_used_ms` orders pruning.
 */
const CACHE_MIGRATIONS = [
  `
  CREATE TABLE embeddings (
    cache_key TEXT NOT NULL,
    embedder TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    last_used_ms INTEGER NOT NULL,
    PRIMARY KEY (cache_key, text_hash)
  ) WITHOUT ROWID;
  CREATE INDEX embeddings_by_last_use ON embeddings (last_used_ms);
  CREATE TABLE completions (
    cache_key TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_hash TEXT NOT NULL,
    completion TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    last_used_ms INTEGER NOT NULL,
    PRIMARY KEY (cache_key, prompt_hash)
  ) WITHOUT ROWID;
  CREATE INDEX completions_by_last_use ON completions (last_used_ms);
  `,
];

/** Opens (creating if needed) the cache database: WAL and a busy timeout, as several processes share it. */
export function openCacheDatabase(path: string): Db {
  return openDatabase(path, CACHE_MIGRATIONS);
}

/** Who computes the cached values: `key` is the cache's key, `name` the spec shown to people. */
export interface CacheOwner {
  key: string;
  name: string;
}

/**
 * A hit refreshes its entry's last-used time only when it is older than this: a cache that is
 * mostly read (CI restoring it on every run) is not rewritten on every run, and pruning by age
 * (days) loses nothing by it.
 */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

/** Whether the main database still has a cache table of before `cache_dir` with rows (read on a miss). */
function hasLegacyRows(db: Db | undefined, table: "embedding_cache" | "completion_cache"): boolean {
  if (!db) return false;
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
  return exists !== undefined && db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined;
}

const toVector = (blob: Buffer) => new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));

/**
 * Embeddings by (embedder's cache key, sha256 of the text), little-endian float32 blobs, in the
 * cache database. `legacy`: the main database, whose `embedding_cache` table (before `cache_dir`)
 * is still read on a miss, by embedder name, and what it has is copied over, so no earlier work is lost.
 */
export class EmbeddingCacheRepo {
  private legacyRows: boolean;

  constructor(
    private readonly db: Db,
    private readonly legacy?: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.legacyRows = hasLegacyRows(legacy, "embedding_cache");
  }

  getMany(owner: CacheOwner, hashes: string[]): Map<string, Float32Array> {
    const get = this.db.prepare(`SELECT vector, last_used_ms FROM embeddings WHERE cache_key = ? AND text_hash = ?`);
    const out = new Map<string, Float32Array>();
    const stale: string[] = [];
    const now = this.now();
    for (const h of hashes) {
      const row = get.get(owner.key, h) as { vector: Buffer; last_used_ms: number } | undefined;
      if (!row) continue;
      out.set(h, toVector(row.vector));
      if (now - row.last_used_ms > TOUCH_AFTER_MS) stale.push(h);
    }
    if (stale.length > 0) {
      const touch = this.db.prepare(`UPDATE embeddings SET last_used_ms = ? WHERE cache_key = ? AND text_hash = ?`);
      this.db.transaction(() => stale.forEach((h) => touch.run(now, owner.key, h)))();
    }
    if (this.legacyRows && out.size < hashes.length) this.fromLegacy(owner, hashes, out);
    return out;
  }

  private fromLegacy(owner: CacheOwner, hashes: string[], out: Map<string, Float32Array>): void {
    const get = this.legacy!.prepare(`SELECT vector FROM embedding_cache WHERE embedder = ? AND text_hash = ?`);
    const found: Array<[string, Float32Array]> = [];
    for (const h of hashes) {
      if (out.has(h)) continue;
      const row = get.get(owner.name, h) as { vector: Buffer } | undefined;
      if (row) found.push([h, toVector(row.vector)]);
    }
    for (const [h, v] of found) out.set(h, v);
    if (found.length > 0) this.putMany(owner, found);
  }

  putMany(owner: CacheOwner, entries: Array<[string, Float32Array]>): void {
    const put = this.db.prepare(`INSERT OR REPLACE INTO embeddings (cache_key, embedder, text_hash, vector, last_used_ms) VALUES (?, ?, ?, ?, ?)`);
    const now = this.now();
    this.db.transaction(() => {
      for (const [h, v] of entries) put.run(owner.key, owner.name, h, Buffer.from(v.buffer, v.byteOffset, v.byteLength), now);
    })();
  }
}

export interface CachedCompletion {
  completion: string;
  promptTokens: number;
  completionTokens: number;
}

/**
 * LLM completions by (model's cache key, sha256 of the prompt): contexts and judge verdicts are
 * paid for once. The main database's `completion_cache` (before `cache_dir`) is read on a miss.
 */
export class CompletionCacheRepo {
  private legacyRows: boolean;

  constructor(
    private readonly db: Db,
    private readonly legacy?: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.legacyRows = hasLegacyRows(legacy, "completion_cache");
  }

  get(owner: CacheOwner, promptHash: string): CachedCompletion | null {
    const row = this.db
      .prepare(`SELECT completion, prompt_tokens, completion_tokens, last_used_ms FROM completions WHERE cache_key = ? AND prompt_hash = ?`)
      .get(owner.key, promptHash) as { completion: string; prompt_tokens: number; completion_tokens: number; last_used_ms: number } | undefined;
    if (row) {
      const now = this.now();
      if (now - row.last_used_ms > TOUCH_AFTER_MS)
        this.db.prepare(`UPDATE completions SET last_used_ms = ? WHERE cache_key = ? AND prompt_hash = ?`).run(now, owner.key, promptHash);
      return { completion: row.completion, promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens };
    }
    if (!this.legacyRows) return null;
    const old = this.legacy!.prepare(`SELECT completion, prompt_tokens, completion_tokens FROM completion_cache WHERE model = ? AND prompt_hash = ?`).get(
      owner.name,
      promptHash,
    ) as { completion: string; prompt_tokens: number; completion_tokens: number } | undefined;
    if (!old) return null;
    const value = { completion: old.completion, promptTokens: old.prompt_tokens, completionTokens: old.completion_tokens };
    this.put(owner, promptHash, value);
    return value;
  }

  put(owner: CacheOwner, promptHash: string, value: CachedCompletion): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO completions (cache_key, model, prompt_hash, completion, prompt_tokens, completion_tokens, last_used_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(owner.key, owner.name, promptHash, value.completion, value.promptTokens, value.completionTokens, this.now());
  }
}

/** One line of `chunkeval cache`: the entries of one embedder or model (one cache key). */
export interface CacheGroup {
  kind: "embeddings" | "completions";
  /** The embedder or model spec. */
  name: string;
  cacheKey: string;
  entries: number;
  /** The entries' own bytes (vectors or texts, hashes and keys), without SQLite's pages around them. */
  bytes: number;
  lastUsedMs: number;
}

/** An entry's own bytes, per table, as SQL: what --max-size counts. */
const ENTRY_BYTES = {
  embeddings: "length(vector) + length(text_hash) + length(cache_key) + length(embedder) + 8",
  completions: "length(CAST(completion AS BLOB)) + length(prompt_hash) + length(cache_key) + length(model) + 24",
} as const;
const NAME_COLUMN = { embeddings: "embedder", completions: "model" } as const;
const HASH_COLUMN = { embeddings: "text_hash", completions: "prompt_hash" } as const;
const TABLES = ["embeddings", "completions"] as const;

/** Listing, clearing and pruning the cache database (`chunkeval cache`). */
export class CacheMaintenance {
  constructor(
    private readonly db: Db,
    private readonly path: string,
  ) {}

  /** The cache file's size on disk, its write-ahead log included. */
  fileBytes(): number {
    const size = (p: string) => {
      try {
        return statSync(p).size;
      } catch {
        return 0;
      }
    };
    return size(this.path) + size(`${this.path}-wal`);
  }

  groups(): CacheGroup[] {
    return TABLES.flatMap((kind) =>
      (
        this.db
          .prepare(
            `SELECT ${NAME_COLUMN[kind]} AS name, cache_key, COUNT(*) AS entries, SUM(${ENTRY_BYTES[kind]}) AS bytes, MAX(last_used_ms) AS last_used_ms
             FROM ${kind} GROUP BY cache_key, ${NAME_COLUMN[kind]} ORDER BY ${NAME_COLUMN[kind]}, cache_key`,
          )
          .all() as Array<{ name: string; cache_key: string; entries: number; bytes: number; last_used_ms: number }>
      ).map((r) => ({ kind, name: r.name, cacheKey: r.cache_key, entries: r.entries, bytes: r.bytes, lastUsedMs: r.last_used_ms })),
    );
  }

  /** Removes every entry, or those of one embedder (`embedder`) or model (`model`); returns how many. */
  clear(only: { embedder?: string; model?: string } = {}): number {
    const removed = this.db.transaction(() => {
      if (only.embedder === undefined && only.model === undefined) return TABLES.reduce((n, t) => n + this.db.prepare(`DELETE FROM ${t}`).run().changes, 0);
      let n = 0;
      if (only.embedder !== undefined) n += this.db.prepare(`DELETE FROM embeddings WHERE embedder = ?`).run(only.embedder).changes;
      if (only.model !== undefined) n += this.db.prepare(`DELETE FROM completions WHERE model = ?`).run(only.model).changes;
      return n;
    })();
    this.compact();
    return removed;
  }

  /**
   * Removes entries not used for `olderThanMs`, then the least recently used ones until the
   * entries' bytes are at most `maxBytes`; returns how many went.
   */
  prune(limits: { olderThanMs?: number; maxBytes?: number }, now = Date.now()): number {
    const removed = this.db.transaction(() => {
      let n = 0;
      if (limits.olderThanMs !== undefined) {
        for (const t of TABLES) n += this.db.prepare(`DELETE FROM ${t} WHERE last_used_ms < ?`).run(now - limits.olderThanMs).changes;
      }
      if (limits.maxBytes !== undefined) {
        const total = TABLES.reduce(
          (sum, t) => sum + ((this.db.prepare(`SELECT SUM(${ENTRY_BYTES[t]}) AS b FROM ${t}`).get() as { b: number | null }).b ?? 0),
          0,
        );
        let excess = total - limits.maxBytes;
        if (excess > 0) {
          const oldestFirst = this.db
            .prepare(
              TABLES.map((t) => `SELECT '${t}' AS t, cache_key, ${HASH_COLUMN[t]} AS hash, ${ENTRY_BYTES[t]} AS bytes, last_used_ms FROM ${t}`).join(
                " UNION ALL ",
              ) + " ORDER BY last_used_ms, t, cache_key, hash",
            )
            .iterate() as IterableIterator<{ t: (typeof TABLES)[number]; cache_key: string; hash: string; bytes: number }>;
          const doomed: Array<{ t: (typeof TABLES)[number]; cache_key: string; hash: string }> = [];
          for (const row of oldestFirst) {
            if (excess <= 0) break;
            doomed.push(row);
            excess -= row.bytes;
          }
          for (const d of doomed) n += this.db.prepare(`DELETE FROM ${d.t} WHERE cache_key = ? AND ${HASH_COLUMN[d.t]} = ?`).run(d.cache_key, d.hash).changes;
        }
      }
      return n;
    })();
    if (removed > 0) this.compact();
    return removed;
  }

  /** Gives the freed pages back to the file system, so the folder CI keeps really shrinks. */
  private compact(): void {
    this.db.exec("VACUUM");
    this.db.pragma("wal_checkpoint(TRUNCATE)");
  }
}

/** Rows of the main database's cache tables from before `cache_dir` (read on a miss, then copied to the cache). */
export function legacyCacheEntries(db: Db): number {
  return (["embedding_cache", "completion_cache"] as const)
    .filter((t) => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(t) !== undefined)
    .reduce((n, t) => n + (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n, 0);
}

/** Empties those tables too (or one embedder's or model's rows), so a cleared cache is not refilled from them. */
export function clearLegacyCache(db: Db, only: { embedder?: string; model?: string } = {}): number {
  const all = only.embedder === undefined && only.model === undefined;
  let n = 0;
  if (all || only.embedder !== undefined)
    n += db.prepare(`DELETE FROM embedding_cache${all ? "" : " WHERE embedder = ?"}`).run(...(all ? [] : [only.embedder])).changes;
  if (all || only.model !== undefined)
    n += db.prepare(`DELETE FROM completion_cache${all ? "" : " WHERE model = ?"}`).run(...(all ? [] : [only.model])).changes;
  return n;
}
