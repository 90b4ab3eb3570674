import type { QueryRecord } from "../../domain/types.js";
import type { QueriesRepo } from "../../domain/ports/queries.js";
import type { Executor } from "./executor.js";
import { queryColumns, queryFromRow } from "../rows.js";

/** Rows of `queries` <-> QueryRecord. */
export class PostgresQueriesRepo implements QueriesRepo {
  constructor(private readonly db: Executor) {}

  async insert(q: QueryRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO queries (id, document_id, strategy, question, answer, retrieved_json, latency_json, usage_json, generator, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      queryColumns(q),
    );
  }

  async get(id: string): Promise<QueryRecord | null> {
    const r = (await this.db.query<Record<string, string>>(`SELECT * FROM queries WHERE id = $1`, [id])).rows[0];
    return r ? queryFromRow(r) : null;
  }
}
