import type { Db } from "./database.js";

/** Embeddings by (embedder, sha256 of the text), stored as little-endian float32 blobs. */
export class EmbeddingCacheRepo {
  constructor(private readonly db: Db) {}

  getMany(embedder: string, hashes: string[]): Map<string, Float32Array> {
    const get = this.db.prepare(`SELECT vector FROM embedding_cache WHERE embedder = ? AND text_hash = ?`);
    const out = new Map<string, Float32Array>();
    for (const h of hashes) {
      const row = get.get(embedder, h) as { vector: Buffer } | undefined;
      if (row) out.set(h, new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)));
    }
    return out;
  }

  putMany(embedder: string, entries: Array<[string, Float32Array]>): void {
    const put = this.db.prepare(`INSERT OR REPLACE INTO embedding_cache (embedder, text_hash, vector) VALUES (?, ?, ?)`);
    this.db.transaction(() => {
      for (const [h, v] of entries) put.run(embedder, h, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    })();
  }
}

export interface CachedCompletion {
  completion: string;
  promptTokens: number;
  completionTokens: number;
}

/** LLM completions by (model, sha256 of the prompt): contexts and judge verdicts are paid for once. */
export class CompletionCacheRepo {
  constructor(private readonly db: Db) {}

  get(model: string, promptHash: string): CachedCompletion | null {
    const row = this.db
      .prepare(`SELECT completion, prompt_tokens, completion_tokens FROM completion_cache WHERE model = ? AND prompt_hash = ?`)
      .get(model, promptHash) as { completion: string; prompt_tokens: number; completion_tokens: number } | undefined;
    return row ? { completion: row.completion, promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens } : null;
  }

  put(model: string, promptHash: string, value: CachedCompletion): void {
    this.db
      .prepare(`INSERT OR REPLACE INTO completion_cache (model, prompt_hash, completion, prompt_tokens, completion_tokens) VALUES (?, ?, ?, ?, ?)`)
      .run(model, promptHash, value.completion, value.promptTokens, value.completionTokens);
  }
}
