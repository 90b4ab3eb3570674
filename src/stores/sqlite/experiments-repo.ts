import type { ExperimentRecord, QuestionResult } from "../../domain/experiment.js";
import type { Db } from "./database.js";
import type { ExperimentSummary } from "../../domain/ports/experiments.js";
import { experimentColumns, experimentFromRow, resultsFromRows, type ExperimentRow } from "../rows.js";

/** Rows of `experiments` and `experiment_results` <-> experiment records. */
export class SqliteExperimentsRepo {
  constructor(private readonly db: Db) {}

  insert(e: ExperimentRecord, results: Record<string, QuestionResult[]>): void {
    const put = this.db.prepare(`INSERT INTO experiment_results (experiment_id, strategy, position, result_json) VALUES (?, ?, ?, ?)`);
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO experiments (id, document_id, strategies_json, questions_count, aggregate_json, best_strategy, total_latency_seconds,
             estimated_cost_usd, details_json, created_at, verdict_json)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(...experimentColumns(e));
      for (const [strategy, list] of Object.entries(results)) list.forEach((r, i) => put.run(e.experimentId, strategy, i, JSON.stringify(r)));
    })();
  }

  get(id: string): ExperimentRecord | null {
    const r = this.db.prepare(`SELECT * FROM experiments WHERE id = ?`).get(id) as ExperimentRow | undefined;
    return r ? experimentFromRow(r) : null;
  }

  results(id: string): Record<string, QuestionResult[]> {
    const rows = this.db.prepare(`SELECT strategy, result_json FROM experiment_results WHERE experiment_id = ? ORDER BY strategy, position`).all(id) as Array<{
      strategy: string;
      result_json: string;
    }>;
    return resultsFromRows(rows);
  }

  /**
   * Experiment summaries, newest first, each with the name of what it benchmarked: the
   * document's file name or the collection's name (null once that is deleted).
   */
  list(offset: number, limit: number): { items: ExperimentSummary[]; total: number } {
    const rows = this.db
      .prepare(
        `SELECT e.id, e.document_id, COALESCE(d.filename, c.name) AS document_name, e.strategies_json, e.created_at
         FROM experiments e LEFT JOIN documents d ON d.id = e.document_id LEFT JOIN collections c ON c.id = e.document_id
         ORDER BY e.created_at DESC, e.rowid DESC LIMIT ? OFFSET ?`,
      )
      .all(limit, offset) as Array<Record<string, string | null>>;
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM experiments`).get() as { n: number };
    return {
      items: rows.map((r) => ({
        id: r.id!,
        documentId: r.document_id!,
        documentName: r.document_name ?? null,
        strategiesUsed: JSON.parse(r.strategies_json!) as string[],
        createdAt: r.created_at!,
      })),
      total: n,
    };
  }
}
