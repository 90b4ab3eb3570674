import type { QueryRecord } from "../../domain/types.js";
import type { Db } from "./database.js";

/** Rows of `queries` <-> QueryRecord. */
export class SqliteQueriesRepo {
  constructor(private readonly db: Db) {}

  insert(q: QueryRecord): void {
    this.db
      .prepare(
        `INSERT INTO queries (id, document_id, strategy, question, answer, retrieved_json, latency_json, usage_json, generator, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        q.queryId,
        q.documentId,
        q.strategy,
        q.question,
        q.answer,
        JSON.stringify(q.retrievedChunks),
        JSON.stringify(q.latencyBreakdown),
        JSON.stringify(q.tokenUsage),
        q.generator,
        q.createdAt,
      );
  }

  get(id: string): QueryRecord | null {
    const r = this.db.prepare(`SELECT * FROM queries WHERE id = ?`).get(id) as Record<string, string> | undefined;
    if (!r) return null;
    return {
      queryId: r.id!,
      documentId: r.document_id!,
      strategy: r.strategy!,
      question: r.question!,
      answer: r.answer!,
      retrievedChunks: JSON.parse(r.retrieved_json!),
      latencyBreakdown: JSON.parse(r.latency_json!),
      tokenUsage: JSON.parse(r.usage_json!),
      generator: r.generator!,
      createdAt: r.created_at!,
    };
  }
}
