import type { ExperimentRecord, QuestionResult } from "../../domain/experiment.js";
import type { Db } from "./database.js";
import type { ExperimentSummary } from "../../domain/ports/experiments.js";
import { verdictFields } from "../../domain/verdict-basis.js";

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
        .run(
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
        );
      for (const [strategy, list] of Object.entries(results)) list.forEach((r, i) => put.run(e.experimentId, strategy, i, JSON.stringify(r)));
    })();
  }

  get(id: string): ExperimentRecord | null {
    const r = this.db.prepare(`SELECT * FROM experiments WHERE id = ?`).get(id) as ExperimentRow | undefined;
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
      // The verdict column also holds the collection figures and the tags (absent in rows from before them),
      // and the headline with its basis (recomputed from the stored figures for rows from before it, without a question set profile).
      collection: null,
      perDocument: null,
      tags: {},
      ...verdictFields(r.best_strategy, verdict.comparisons, aggregateMetrics, details.search, null),
      ...verdict,
    };
  }

  results(id: string): Record<string, QuestionResult[]> {
    const rows = this.db.prepare(`SELECT strategy, result_json FROM experiment_results WHERE experiment_id = ? ORDER BY strategy, position`).all(id) as Array<{
      strategy: string;
      result_json: string;
    }>;
    const out: Record<string, QuestionResult[]> = {};
    for (const row of rows) (out[row.strategy] ??= []).push(JSON.parse(row.result_json) as QuestionResult);
    return out;
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
