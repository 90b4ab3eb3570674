import type { ExperimentRecord, QuestionResult } from "../../domain/experiment.js";
import type { ExperimentSummary, ExperimentsRepo } from "../../domain/ports/experiments.js";
import { verdictFields } from "../../domain/verdict-basis.js";
import type { Executor } from "./executor.js";

interface ExperimentRow {
  id: string;
  document_id: string;
  strategies_json: string;
  questions_count: number;
  aggregate_json: string;
  best_strategy: string;
  total_latency_seconds: number;
  estimated_cost_usd: number;
  details_json: string;
  created_at: string;
  verdict_json: string | null;
}

/** Rows of `experiments` and `experiment_results` <-> experiment records. */
export class PostgresExperimentsRepo implements ExperimentsRepo {
  constructor(private readonly db: Executor) {}

  insert(e: ExperimentRecord, results: Record<string, QuestionResult[]>): Promise<void> {
    return this.db.atomic(async (tx) => {
      await tx.query(
        `INSERT INTO experiments (id, document_id, strategies_json, questions_count, aggregate_json, best_strategy, total_latency_seconds,
           estimated_cost_usd, details_json, created_at, verdict_json)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          e.experimentId,
          e.documentId,
          JSON.stringify(e.strategiesUsed),
          e.questionsCount,
          JSON.stringify(e.aggregateMetrics),
          e.bestStrategy,
          e.totalLatencySeconds,
          e.estimatedCostUsd,
          JSON.stringify(e.details),
          e.createdAt,
          JSON.stringify({
            verdict: e.verdict,
            comparisons: e.comparisons,
            collection: e.collection,
            perDocument: e.perDocument,
            tags: e.tags,
            verdictStatus: e.verdictStatus,
            headline: e.headline,
            inseparableFromBest: e.inseparableFromBest,
            verdictNotes: e.verdictNotes,
            questionSet: e.questionSet,
            retrievalModes: e.retrievalModes,
          }),
        ],
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
    if (!r) return null;
    const verdict = r.verdict_json
      ? (JSON.parse(r.verdict_json) as Partial<ExperimentRecord> & Pick<ExperimentRecord, "verdict" | "comparisons">)
      : { verdict: "not measured: the experiment was recorded before chunkeval measured confidence", comparisons: [] };
    const details = JSON.parse(r.details_json) as ExperimentRecord["details"];
    const aggregateMetrics = JSON.parse(r.aggregate_json) as ExperimentRecord["aggregateMetrics"];
    return {
      experimentId: r.id,
      documentId: r.document_id,
      strategiesUsed: JSON.parse(r.strategies_json),
      questionsCount: r.questions_count,
      aggregateMetrics,
      bestStrategy: r.best_strategy,
      totalLatencySeconds: r.total_latency_seconds,
      estimatedCostUsd: r.estimated_cost_usd,
      createdAt: r.created_at,
      details,
      collection: null,
      perDocument: null,
      tags: {},
      ...verdictFields(r.best_strategy, verdict.comparisons, aggregateMetrics, details.search, null),
      ...verdict,
    };
  }

  async results(id: string): Promise<Record<string, QuestionResult[]>> {
    const { rows } = await this.db.query<{ strategy: string; result_json: string }>(
      `SELECT strategy, result_json FROM experiment_results WHERE experiment_id = $1 ORDER BY strategy COLLATE "C", position`,
      [id],
    );
    const out: Record<string, QuestionResult[]> = {};
    for (const row of rows) (out[row.strategy] ??= []).push(JSON.parse(row.result_json) as QuestionResult);
    return out;
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
