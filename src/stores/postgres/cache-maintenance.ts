import type { CacheGroup, CacheMaintenance } from "../../domain/ports/caches.js";
import { createPool, PoolExecutor, type Executor } from "./executor.js";

/** An entry's own bytes, per table, as SQL: what --max-size counts (the SQLite cache's measure, in PostgreSQL's functions). */
const ENTRY_BYTES = {
  embeddings: "octet_length(vector) + octet_length(text_hash) + octet_length(cache_key) + octet_length(embedder) + 8",
  completions: "octet_length(completion) + octet_length(prompt_hash) + octet_length(cache_key) + octet_length(model) + 24",
} as const;
const NAME_COLUMN = { embeddings: "embedder", completions: "model" } as const;
const HASH_COLUMN = { embeddings: "text_hash", completions: "prompt_hash" } as const;
const TABLES = ["embeddings", "completions"] as const;

/** The URI without its password, as `chunkeval cache` shows where the cache is. */
function shownLocation(uri: string): string {
  const url = new URL(uri);
  if (url.password) url.password = "***";
  return url.toString();
}

/** Listing, clearing and pruning the caches in a PostgreSQL metadata store (`chunkeval cache`). */
export class PostgresCacheMaintenance implements CacheMaintenance {
  readonly location: string;

  constructor(
    uri: string,
    private readonly db: Executor,
    private readonly onClose: () => Promise<void>,
  ) {
    this.location = shownLocation(uri);
  }

  /**
   * Whether the store's schema is there: `chunkeval cache` on a database no chunkeval has opened
   * yet sees an empty cache, and creates nothing.
   */
  private async present(): Promise<boolean> {
    const { rows } = await this.db.query<{ present: boolean }>(`SELECT to_regclass('completions') IS NOT NULL AS present`);
    return rows[0]!.present;
  }

  /** The cache tables' size in the database, their indexes and TOAST included. */
  async fileBytes(): Promise<number> {
    if (!(await this.present())) return 0;
    const { rows } = await this.db.query<{ n: number }>(`SELECT (pg_total_relation_size('embeddings') + pg_total_relation_size('completions'))::bigint AS n`);
    return rows[0]!.n;
  }

  async groups(): Promise<CacheGroup[]> {
    if (!(await this.present())) return [];
    const groups: CacheGroup[] = [];
    for (const kind of TABLES) {
      const { rows } = await this.db.query<{ name: string; cache_key: string; entries: number; bytes: number; last_used_ms: number }>(
        `SELECT ${NAME_COLUMN[kind]} AS name, cache_key, COUNT(*) AS entries, SUM(${ENTRY_BYTES[kind]})::bigint AS bytes, MAX(last_used_ms) AS last_used_ms
         FROM ${kind} GROUP BY cache_key, ${NAME_COLUMN[kind]} ORDER BY ${NAME_COLUMN[kind]} COLLATE "C", cache_key COLLATE "C"`,
      );
      for (const r of rows) groups.push({ kind, name: r.name, cacheKey: r.cache_key, entries: r.entries, bytes: r.bytes, lastUsedMs: r.last_used_ms });
    }
    return groups;
  }

  /** PostgreSQL stores have no cache tables from before `cache_dir`. */
  async legacyEntries(): Promise<number> {
    return 0;
  }

  async clear(only: { embedder?: string; model?: string } = {}): Promise<number> {
    if (!(await this.present())) return 0;
    return this.db.atomic(async (tx) => {
      const all = only.embedder === undefined && only.model === undefined;
      let n = 0;
      if (all || only.embedder !== undefined)
        n += (await tx.query(`DELETE FROM embeddings${all ? "" : " WHERE embedder = $1"}`, all ? [] : [only.embedder])).rowCount;
      if (all || only.model !== undefined) n += (await tx.query(`DELETE FROM completions${all ? "" : " WHERE model = $1"}`, all ? [] : [only.model])).rowCount;
      return n;
    });
  }

  /**
   * Removes entries not used for `olderThanMs`, then the least recently used ones until the
   * entries' bytes are at most `maxBytes` (an entry goes while the bytes of those before it are
   * short of the excess, as in the SQLite cache); returns how many went.
   */
  async prune(limits: { olderThanMs?: number; maxBytes?: number }, now = Date.now()): Promise<number> {
    if (!(await this.present())) return 0;
    return this.db.atomic(async (tx) => {
      let n = 0;
      if (limits.olderThanMs !== undefined) {
        for (const t of TABLES) n += (await tx.query(`DELETE FROM ${t} WHERE last_used_ms < $1`, [now - limits.olderThanMs])).rowCount;
      }
      if (limits.maxBytes !== undefined) {
        const entries = TABLES.map(
          (t) => `SELECT '${t}' AS t, cache_key, ${HASH_COLUMN[t]} AS hash, (${ENTRY_BYTES[t]})::bigint AS bytes, last_used_ms FROM ${t}`,
        );
        const { rows } = await tx.query<{ t: (typeof TABLES)[number]; cache_key: string; hash: string }>(
          `WITH entries AS (${entries.join(" UNION ALL ")}),
           placed AS (SELECT t, cache_key, hash,
                         SUM(bytes) OVER (ORDER BY last_used_ms, t, cache_key COLLATE "C", hash COLLATE "C" ROWS UNBOUNDED PRECEDING) - bytes AS before,
                         SUM(bytes) OVER () AS total FROM entries)
           SELECT t, cache_key, hash FROM placed WHERE before < total - $1`,
          [limits.maxBytes],
        );
        for (const t of TABLES) {
          const doomed = rows.filter((r) => r.t === t);
          if (doomed.length === 0) continue;
          n += (
            await tx.query(`DELETE FROM ${t} WHERE (cache_key, ${HASH_COLUMN[t]}) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, [
              doomed.map((d) => d.cache_key),
              doomed.map((d) => d.hash),
            ])
          ).rowCount;
        }
      }
      return n;
    });
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/** `chunkeval cache` on a PostgreSQL store: its own small pool, closed with it. The schema is the store's (opened first). */
export function openPostgresCacheMaintenance(uri: string): CacheMaintenance {
  const pool = createPool(uri);
  return new PostgresCacheMaintenance(uri, new PoolExecutor(pool), () => pool.end());
}
