import { statSync } from "node:fs";
import { openDatabase, type Db } from "./database.js";
import type { CacheGroup, CacheOwner, CachedCompletion } from "../../domain/ports/caches.js";
export type { CacheGroup, CacheOwner, CachedCompletion };

export { CACHE_FILE } from "./files.js";

/**
 * The cache database's migrations (append only, like the main database's). `cache_key` is what
 * makes a value what it is (model, its version, dimensions, normalisation: Embedder.cacheKey),
 * so a cache folder restored from another machine serves only what this machine would compute;
 * `embedder`/`model` is the spec people know, for `chunkeval cache`. `last_used_ms` orders pruning.
 */
export const CACHE_MIGRATIONS = [
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

/**
 * How long a processing run's cache write waits for another process's lock before it gives up
 * (the write is best effort, CachedEmbedder): the connection is used on the main thread, where a
 * 5 s wait (the default busy timeout) held a server still while `cache prune` compacted the file.
 */
export const CACHE_WRITE_WAIT_MS = 250;

/**
 * Opens (creating if needed) the cache database: WAL and a busy timeout, as several processes
 * share it. `writeWaitMs` shortens the busy timeout once it is open (processing runs); the
 * maintenance commands keep the long one.
 */
export function openCacheDatabase(path: string, options: { writeWaitMs?: number } = {}): Db {
  // Incremental auto-vacuum (set before a new file's first table): compaction gives pages back in short steps.
  const db = openDatabase(path, CACHE_MIGRATIONS, { autoVacuum: "incremental" });
  if (options.writeWaitMs !== undefined) db.pragma(`busy_timeout = ${Math.max(0, Math.round(options.writeWaitMs))}`);
  return db;
}

/**
 * A hit refreshes its entry's last-used time only when it is older than this: a cache that is
 * mostly read (CI restoring it on every run) is not rewritten on every run, and pruning by age
 * (days) loses nothing by it.
 */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

/** A cache table of the main database from before `cache_dir`, and where its rows go in the cache database. */
interface LegacyTable {
  table: "embedding_cache" | "completion_cache";
  /** The column naming the embedder or model. */
  owner: "embedder" | "model";
  /** The columns copied as they are. */
  columns: string[];
  target: "embeddings" | "completions";
}
const LEGACY_EMBEDDINGS: LegacyTable = { table: "embedding_cache", owner: "embedder", columns: ["text_hash", "vector"], target: "embeddings" };
const LEGACY_COMPLETIONS: LegacyTable = {
  table: "completion_cache",
  owner: "model",
  columns: ["prompt_hash", "completion", "prompt_tokens", "completion_tokens"],
  target: "completions",
};

/**
 * Moves what a data directory from before `cache_dir` cached for one embedder or model into the
 * cache database, under its cache key, the first time this process uses it: no earlier work is
 * lost, and the cache folder CI keeps has it all. Copied first (an entry already there is kept),
 * then deleted from the main database, so a crash in between only leaves rows to copy again.
 */
class LegacyMove {
  private readonly done = new Set<string>();

  constructor(
    private readonly cache: Db,
    private readonly main: Db | undefined,
    private readonly legacy: LegacyTable,
  ) {
    if (!main || main.prepare(`SELECT 1 FROM ${legacy.table} LIMIT 1`).get() === undefined) this.main = undefined;
  }

  once(owner: CacheOwner, now: number): void {
    if (!this.main || this.done.has(owner.name)) return;
    this.done.add(owner.name);
    const { table, owner: ownerColumn, columns, target } = this.legacy;
    const rows = this.main.prepare(`SELECT ${columns.join(", ")} FROM ${table} WHERE ${ownerColumn} = ?`).all(owner.name) as Array<Record<string, unknown>>;
    if (rows.length === 0) return;
    const insert = this.cache.prepare(
      `INSERT OR IGNORE INTO ${target} (cache_key, ${ownerColumn}, ${columns.join(", ")}, last_used_ms) VALUES (?, ?, ${columns.map(() => "?").join(", ")}, ?)`,
    );
    this.cache.transaction(() => rows.forEach((row) => insert.run(owner.key, owner.name, ...columns.map((c) => row[c]), now)))();
    this.main.prepare(`DELETE FROM ${table} WHERE ${ownerColumn} = ?`).run(owner.name);
  }
}

const toVector = (blob: Buffer) => new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));

/**
 * Embeddings by (embedder's cache key, sha256 of the text), little-endian float32 blobs, in the
 * cache database. `legacy`: the main database, whose `embedding_cache` table (before `cache_dir`)
 * is moved over for each embedder on its first use.
 */
export class EmbeddingCacheRepo {
  private readonly legacyMove: LegacyMove;

  constructor(
    private readonly db: Db,
    legacy?: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.legacyMove = new LegacyMove(db, legacy, LEGACY_EMBEDDINGS);
  }

  getMany(owner: CacheOwner, hashes: string[]): Map<string, Float32Array> {
    const now = this.now();
    this.legacyMove.once(owner, now);
    const get = this.db.prepare(`SELECT vector, last_used_ms FROM embeddings WHERE cache_key = ? AND text_hash = ?`);
    const out = new Map<string, Float32Array>();
    const stale: string[] = [];
    for (const h of hashes) {
      const row = get.get(owner.key, h) as { vector: Buffer; last_used_ms: number } | undefined;
      if (!row) continue;
      out.set(h, toVector(row.vector));
      if (now - row.last_used_ms > TOUCH_AFTER_MS) stale.push(h);
    }
    if (stale.length > 0) {
      const touch = this.db.prepare(`UPDATE embeddings SET last_used_ms = ? WHERE cache_key = ? AND text_hash = ?`);
      try {
        this.db.transaction(() => stale.forEach((h) => touch.run(now, owner.key, h)))();
      } catch {
        // Another process holds the write lock: the hits stand, their last use is refreshed next time.
      }
    }
    return out;
  }

  putMany(owner: CacheOwner, entries: Array<[string, Float32Array]>): void {
    const put = this.db.prepare(`INSERT OR REPLACE INTO embeddings (cache_key, embedder, text_hash, vector, last_used_ms) VALUES (?, ?, ?, ?, ?)`);
    const now = this.now();
    this.db.transaction(() => {
      for (const [h, v] of entries) put.run(owner.key, owner.name, h, Buffer.from(v.buffer, v.byteOffset, v.byteLength), now);
    })();
  }
}

/**
 * LLM completions by (model's cache key, sha256 of the prompt): contexts and judge verdicts are
 * paid for once. The main database's `completion_cache` (before `cache_dir`) is moved over for
 * each model on its first use.
 */
export class CompletionCacheRepo {
  private readonly legacyMove: LegacyMove;

  constructor(
    private readonly db: Db,
    legacy?: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.legacyMove = new LegacyMove(db, legacy, LEGACY_COMPLETIONS);
  }

  get(owner: CacheOwner, promptHash: string): CachedCompletion | null {
    const now = this.now();
    this.legacyMove.once(owner, now);
    const row = this.db
      .prepare(`SELECT completion, prompt_tokens, completion_tokens, last_used_ms FROM completions WHERE cache_key = ? AND prompt_hash = ?`)
      .get(owner.key, promptHash) as { completion: string; prompt_tokens: number; completion_tokens: number; last_used_ms: number } | undefined;
    if (!row) return null;
    if (now - row.last_used_ms > TOUCH_AFTER_MS)
      this.db.prepare(`UPDATE completions SET last_used_ms = ? WHERE cache_key = ? AND prompt_hash = ?`).run(now, owner.key, promptHash);
    return { completion: row.completion, promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens };
  }

  put(owner: CacheOwner, promptHash: string, value: CachedCompletion): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO completions (cache_key, model, prompt_hash, completion, prompt_tokens, completion_tokens, last_used_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(owner.key, owner.name, promptHash, value.completion, value.promptTokens, value.completionTokens, this.now());
  }
}

/** An entry's own bytes, per table, as SQL: what --max-size counts. */
const ENTRY_BYTES = {
  embeddings: "length(vector) + length(text_hash) + length(cache_key) + length(embedder) + 8",
  completions: "length(CAST(completion AS BLOB)) + length(prompt_hash) + length(cache_key) + length(model) + 24",
} as const;
const NAME_COLUMN = { embeddings: "embedder", completions: "model" } as const;
const HASH_COLUMN = { embeddings: "text_hash", completions: "prompt_hash" } as const;
const TABLES = ["embeddings", "completions"] as const;

/**
 * Rows removed, or pages given back to the file system, per write transaction when the cache is
 * cleared, pruned or compacted: the write lock is released between steps, so processing runs
 * sharing the cache (whose writes wait CACHE_WRITE_WAIT_MS at most) are not kept out for long.
 */
const ROWS_PER_STEP = 1000;
const PAGES_PER_STEP = 256;
/** SQLite's `auto_vacuum` mode that gives free pages back in steps (`incremental_vacuum`). */
const INCREMENTAL = 2;
/**
 * The most live data a cache file from before incremental compaction is switched with: the one
 * VACUUM that switches it rewrites that data under the write lock (about 30 MB a second here: a
 * 706 MB cache took 24 s), so a larger one keeps its free pages for new entries instead.
 */
const SWITCH_MAX_BYTES = 32 * 1024 ** 2;

/** Listing, clearing and pruning the cache database (`chunkeval cache`). */
export class CacheMaintenance {
  /**
   * `main`: the data directory's database, when there is one (its cache tables predate
   * `cache_dir`). `afterStep` is called after each write transaction of a clear, prune or
   * compaction (with the lock released): a test writes from another connection there.
   */
  constructor(
    private readonly db: Db,
    private readonly path: string,
    private readonly main?: Db,
    private readonly afterStep: () => void = () => undefined,
  ) {}

  /** Entries still in the main database from before `cache_dir`. */
  legacyEntries(): number {
    return this.main ? legacyCacheEntries(this.main) : 0;
  }

  close(): void {
    this.main?.close();
    this.db.close();
  }

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
    // The main database's cache tables too, so a cleared cache is not refilled from them.
    const legacy = this.main ? clearLegacyCache(this.main, only) : 0;
    const all = only.embedder === undefined && only.model === undefined;
    let removed = 0;
    if (all || only.embedder !== undefined) removed += this.deleteInSteps("embeddings", all ? "1" : "embedder = ?", all ? [] : [only.embedder]);
    if (all || only.model !== undefined) removed += this.deleteInSteps("completions", all ? "1" : "model = ?", all ? [] : [only.model]);
    this.compact();
    return removed + legacy;
  }

  /**
   * Removes entries not used for `olderThanMs`, then the least recently used ones until the
   * entries' bytes are at most `maxBytes`; returns how many went.
   */
  prune(limits: { olderThanMs?: number; maxBytes?: number }, now = Date.now()): number {
    let removed = 0;
    if (limits.olderThanMs !== undefined) {
      for (const t of TABLES) removed += this.deleteInSteps(t, "last_used_ms < ?", [now - limits.olderThanMs]);
    }
    if (limits.maxBytes !== undefined) removed += this.pruneToSize(limits.maxBytes);
    if (removed > 0) this.compact();
    return removed;
  }

  /** Removes the least recently used entries until the entries' bytes are at most `maxBytes`; returns how many went. */
  private pruneToSize(maxBytes: number): number {
    const doomed = this.db.transaction(() => {
      // Read in one transaction: the sizes and the order they are judged by agree.
      const total = TABLES.reduce(
        (sum, t) => sum + ((this.db.prepare(`SELECT SUM(${ENTRY_BYTES[t]}) AS b FROM ${t}`).get() as { b: number | null }).b ?? 0),
        0,
      );
      let excess = total - maxBytes;
      const chosen: Array<{ t: (typeof TABLES)[number]; cache_key: string; hash: string }> = [];
      if (excess <= 0) return chosen;
      const oldestFirst = this.db
        .prepare(
          TABLES.map((t) => `SELECT '${t}' AS t, cache_key, ${HASH_COLUMN[t]} AS hash, ${ENTRY_BYTES[t]} AS bytes, last_used_ms FROM ${t}`).join(
            " UNION ALL ",
          ) + " ORDER BY last_used_ms, t, cache_key, hash",
        )
        .iterate() as IterableIterator<{ t: (typeof TABLES)[number]; cache_key: string; hash: string; bytes: number }>;
      for (const row of oldestFirst) {
        if (excess <= 0) break;
        chosen.push(row);
        excess -= row.bytes;
      }
      return chosen;
    })();
    let removed = 0;
    for (let at = 0; at < doomed.length; at += ROWS_PER_STEP) {
      removed += this.db.transaction(() =>
        doomed
          .slice(at, at + ROWS_PER_STEP)
          .reduce((n, d) => n + this.db.prepare(`DELETE FROM ${d.t} WHERE cache_key = ? AND ${HASH_COLUMN[d.t]} = ?`).run(d.cache_key, d.hash).changes, 0),
      )();
      this.afterStep();
    }
    return removed;
  }

  /** Deletes the rows of `table` that match `where`, ROWS_PER_STEP per write transaction; returns how many. */
  private deleteInSteps(table: (typeof TABLES)[number], where: string, values: unknown[]): number {
    const key = `cache_key, ${HASH_COLUMN[table]}`;
    const step = this.db.prepare(`DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${ROWS_PER_STEP})`);
    let removed = 0;
    for (;;) {
      const { changes } = step.run(...values);
      if (changes === 0) return removed;
      removed += changes;
      this.afterStep();
    }
  }

  /**
   * Gives the freed pages back to the file system, so the folder CI keeps really shrinks:
   * PAGES_PER_STEP per write transaction (`incremental_vacuum`), not one VACUUM that rewrites
   * the whole file under the write lock. A cache made before it was created with incremental
   * auto-vacuum (openCacheDatabase) is switched to it by one VACUUM, once, while its live data is
   * at most SWITCH_MAX_BYTES; a larger one is left as it is (SQLite reuses its free pages).
   */
  private compact(): void {
    if (this.db.pragma("auto_vacuum", { simple: true }) !== INCREMENTAL) {
      const pages = (this.db.pragma("page_count", { simple: true }) as number) - (this.db.pragma("freelist_count", { simple: true }) as number);
      if (pages * (this.db.pragma("page_size", { simple: true }) as number) > SWITCH_MAX_BYTES) return;
      this.db.pragma(`auto_vacuum = ${INCREMENTAL}`);
      this.db.exec("VACUUM");
    }
    while ((this.db.pragma("freelist_count", { simple: true }) as number) > 0) {
      this.db.pragma(`incremental_vacuum(${PAGES_PER_STEP})`);
      this.afterStep();
    }
    // Truncating the write-ahead log waits for readers while it keeps new writers out: it waits a
    // moment only, and a log it could not truncate now is truncated by the next compaction.
    const wait = this.db.pragma("busy_timeout", { simple: true }) as number;
    this.db.pragma("busy_timeout = 100");
    try {
      this.db.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
      this.db.pragma(`busy_timeout = ${wait}`);
    }
  }
}

/** Rows of the main database's cache tables from before `cache_dir` (moved to the cache when their embedder or model is used). */
function legacyCacheEntries(db: Db): number {
  return (["embedding_cache", "completion_cache"] as const).reduce((n, t) => n + (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n, 0);
}

/** Empties those tables too (or one embedder's or model's rows), so a cleared cache is not refilled from them. */
function clearLegacyCache(db: Db, only: { embedder?: string; model?: string } = {}): number {
  const all = only.embedder === undefined && only.model === undefined;
  let n = 0;
  if (all || only.embedder !== undefined)
    n += db.prepare(`DELETE FROM embedding_cache${all ? "" : " WHERE embedder = ?"}`).run(...(all ? [] : [only.embedder])).changes;
  if (all || only.model !== undefined)
    n += db.prepare(`DELETE FROM completion_cache${all ? "" : " WHERE model = ?"}`).run(...(all ? [] : [only.model])).changes;
  return n;
}
