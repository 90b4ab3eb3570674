import type { CacheOwner, CachedCompletion, CompletionCache, EmbeddingCache } from "../../domain/ports/caches.js";
import type { Executor } from "./executor.js";

/**
 * A hit refreshes its entry's last-used time only when it is older than this (as the SQLite
 * cache does): a mostly read cache is not rewritten on every read.
 */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

const toVector = (bytes: Buffer) => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
const toBytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** Embeddings by (embedder's cache key, sha256 of the text), little-endian float32 bytes, shared by every replica. */
export class PostgresEmbeddingCache implements EmbeddingCache {
  constructor(
    private readonly db: Executor,
    private readonly now: () => number = Date.now,
  ) {}

  async getMany(owner: CacheOwner, hashes: string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (hashes.length === 0) return out;
    const now = this.now();
    const { rows } = await this.db.query<{ text_hash: string; vector: Buffer; last_used_ms: number }>(
      `SELECT text_hash, vector, last_used_ms FROM embeddings WHERE cache_key = $1 AND text_hash = ANY($2::text[])`,
      [owner.key, hashes],
    );
    const found = new Map(rows.map((r) => [r.text_hash, r]));
    const stale: string[] = [];
    for (const h of hashes) {
      const row = found.get(h);
      if (!row) continue;
      out.set(h, toVector(row.vector));
      if (now - row.last_used_ms > TOUCH_AFTER_MS) stale.push(h);
    }
    if (stale.length > 0)
      await this.db.query(`UPDATE embeddings SET last_used_ms = $1 WHERE cache_key = $2 AND text_hash = ANY($3::text[])`, [now, owner.key, stale]);
    return out;
  }

  async putMany(owner: CacheOwner, entries: Array<[string, Float32Array]>): Promise<void> {
    if (entries.length === 0) return;
    // One row per hash: a batch naming a hash twice keeps its last vector, as INSERT OR REPLACE does.
    const unique = new Map(entries);
    await this.db.query(
      `INSERT INTO embeddings (cache_key, embedder, text_hash, vector, last_used_ms)
       SELECT $1, $2, u.text_hash, u.vector, $3 FROM unnest($4::text[], $5::bytea[]) AS u(text_hash, vector)
       ON CONFLICT (cache_key, text_hash) DO UPDATE SET embedder = excluded.embedder, vector = excluded.vector, last_used_ms = excluded.last_used_ms`,
      [owner.key, owner.name, this.now(), [...unique.keys()], [...unique.values()].map(toBytes)],
    );
  }
}

/** LLM completions by (model's cache key, sha256 of the prompt), shared by every replica. */
export class PostgresCompletionCache implements CompletionCache {
  constructor(
    private readonly db: Executor,
    private readonly now: () => number = Date.now,
  ) {}

  async get(owner: CacheOwner, promptHash: string): Promise<CachedCompletion | null> {
    const now = this.now();
    const { rows } = await this.db.query<{ completion: string; prompt_tokens: number; completion_tokens: number; last_used_ms: number }>(
      `SELECT completion, prompt_tokens, completion_tokens, last_used_ms FROM completions WHERE cache_key = $1 AND prompt_hash = $2`,
      [owner.key, promptHash],
    );
    const row = rows[0];
    if (!row) return null;
    if (now - row.last_used_ms > TOUCH_AFTER_MS)
      await this.db.query(`UPDATE completions SET last_used_ms = $1 WHERE cache_key = $2 AND prompt_hash = $3`, [now, owner.key, promptHash]);
    return { completion: row.completion, promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens };
  }

  async put(owner: CacheOwner, promptHash: string, value: CachedCompletion): Promise<void> {
    await this.db.query(
      `INSERT INTO completions (cache_key, model, prompt_hash, completion, prompt_tokens, completion_tokens, last_used_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (cache_key, prompt_hash) DO UPDATE SET model = excluded.model, completion = excluded.completion,
         prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens, last_used_ms = excluded.last_used_ms`,
      [owner.key, owner.name, promptHash, value.completion, value.promptTokens, value.completionTokens, this.now()],
    );
  }
}
