import type { QueryRecord } from "../../domain/types.js";
import type { Db } from "./database.js";
import { queryColumns, queryFromRow } from "../rows.js";

/** Rows of `queries` <-> QueryRecord. */
export class SqliteQueriesRepo {
  constructor(private readonly db: Db) {}

  insert(q: QueryRecord): void {
    this.db
      .prepare(
        `INSERT INTO queries (id, document_id, strategy, question, answer, retrieved_json, latency_json, usage_json, generator, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(...queryColumns(q));
  }

  get(id: string): QueryRecord | null {
    const r = this.db.prepare(`SELECT * FROM queries WHERE id = ?`).get(id) as Record<string, string> | undefined;
    return r ? queryFromRow(r) : null;
  }
}
