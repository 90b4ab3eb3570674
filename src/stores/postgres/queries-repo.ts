import type { QueryRecord } from "../../domain/types.js";
import type { QueriesRepo } from "../../domain/ports/queries.js";
import type { Executor } from "./executor.js";

/** Rows of `queries` <-> QueryRecord. */
export class PostgresQueriesRepo implements QueriesRepo {
  constructor(private readonly db: Executor) {}

  async insert(q: QueryRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO queries (id, document_id, strategy, question, answer, retrieved_json, latency_json, usage_json, generator, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
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
      ],
    );
  }

  async get(id: string): Promise<QueryRecord | null> {
    const r = (await this.db.query<Record<string, string>>(`SELECT * FROM queries WHERE id = $1`, [id])).rows[0];
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
