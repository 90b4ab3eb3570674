import type { ExperimentRecord, QuestionResult } from "../../domain/experiment.js";
import type { ExperimentSummary, ExperimentsRepo } from "../../domain/ports/experiments.js";
import type { Executor } from "./executor.js";
import { experimentColumns, experimentFromRow, resultsFromRows, type ExperimentRow } from "../rows.js";

/** Rows of `experiments` and `experiment_results` <-> experiment records. */
export class PostgresExperimentsRepo implements ExperimentsRepo {
  constructor(private readonly db: Executor) {}

  insert(e: ExperimentRecord, results: Record<string, QuestionResult[]>): Promise<void> {
    return this.db.atomic(async (tx) => {
      await tx.query(
        `INSERT INTO experiments (id, document_id, strategies_json, questions_count, aggregate_json, best_strategy, total_latency_seconds,
           estimated_cost_usd, details_json, created_at, verdict_json)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        experimentColumns(e),
      );
      const rows = Object.entries(results).flatMap(([strategy, list]) => list.map((r, i) => ({ strategy, position: i, json: JSON.stringify(r) })));
      if (rows.length === 0) return;
      await tx.query(
        `INSERT INTO experiment_results (experiment_id, strategy, position, result_json)
         SELECT $1, u.strategy, u.position, u.result_json FROM unnest($2::text[], $3::int[], $4::text[]) AS u(strategy, position, result_json)`,
        [e.experimentId, rows.map((r) => r.strategy), rows.map((r) => r.position), rows.map((r) => r.json)],
      );
    });
  }

  async get(id: string): Promise<ExperimentRecord | null> {
    const r = (await this.db.query<ExperimentRow>(`SELECT * FROM experiments WHERE id = $1`, [id])).rows[0];
    return r ? experimentFromRow(r) : null;
  }

  async results(id: string): Promise<Record<string, QuestionResult[]>> {
    const { rows } = await this.db.query<{ strategy: string; result_json: string }>(
      `SELECT strategy, result_json FROM experiment_results WHERE experiment_id = $1 ORDER BY strategy COLLATE "C", position`,
      [id],
    );
    return resultsFromRows(rows);
  }

  async list(offset: number, limit: number): Promise<{ items: ExperimentSummary[]; total: number }> {
    const { rows } = await this.db.query<Record<string, string | null>>(
      `SELECT e.id, e.document_id, COALESCE(d.filename, c.name) AS document_name, e.strategies_json, e.created_at
       FROM experiments e LEFT JOIN documents d ON d.id = e.document_id LEFT JOIN collections c ON c.id = e.document_id
       ORDER BY e.created_at COLLATE "C" DESC, e.seq DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const total = (await this.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM experiments`)).rows[0]!.n;
    return {
      items: rows.map((r) => ({
        id: r.id!,
        documentId: r.document_id!,
        documentName: r.document_name ?? null,
        strategiesUsed: JSON.parse(r.strategies_json!) as string[],
        createdAt: r.created_at!,
      })),
      total,
    };
  }
}
