/**
 * Rows of the metadata tables -> domain records, for every adapter: the SQL differs between
 * SQLite and PostgreSQL, the tables' columns and what they mean do not.
 */
import type { ExperimentRecord, QuestionResult } from "../domain/experiment.js";
import type { Chunk, QueryRecord, RetrievalMode } from "../domain/types.js";
import type { PendingGeneration, StrategyState } from "../domain/ports/chunks.js";
import type { IngestionJob } from "../domain/ports/ingestion.js";
import type { JobRecord, JobStatus } from "../domain/ports/jobs.js";
import type { ApiKeyRecord, TenantDomain } from "../domain/ports/tenants.js";
import { verdictFields } from "../domain/verdict-basis.js";

export interface ChunkRow {
  id: string;
  position: number;
  role: "chunk" | "parent";
  parent_id: string | null;
  text: string;
  context: string | null;
  start_offset: number;
  end_offset: number;
  token_count: number;
}

export function chunkFromRow(row: ChunkRow): Chunk {
  return {
    id: row.id,
    position: row.position,
    role: row.role,
    parentId: row.parent_id,
    text: row.text,
    context: row.context,
    start: row.start_offset,
    end: row.end_offset,
    tokenCount: row.token_count,
  };
}

export interface StrategyStateRow {
  document_id: string;
  strategy: string;
  generation: string;
  options_json: string;
  embedder: string;
  vector_table: string;
  retrieval: RetrievalMode;
  chunk_count: number;
  processed_at: string;
}

export function strategyStateFromRow(row: StrategyStateRow): StrategyState {
  return {
    documentId: row.document_id,
    strategy: row.strategy,
    generation: row.generation,
    options: JSON.parse(row.options_json) as Record<string, number>,
    embedder: row.embedder,
    vectorSpace: row.vector_table,
    retrieval: row.retrieval,
    chunkCount: row.chunk_count,
    processedAt: row.processed_at,
  };
}

export interface PendingGenerationRow {
  document_id: string;
  strategy: string;
  generation: string;
  vector_table: string;
  owner_instance: string;
  owner_pid: number;
  owner_host: string;
  started_at_ms: number;
}

export function pendingGenerationFromRow(r: PendingGenerationRow): PendingGeneration {
  return {
    documentId: r.document_id,
    strategy: r.strategy,
    generation: r.generation,
    vectorSpace: r.vector_table,
    owner: { instance: r.owner_instance, pid: r.owner_pid, host: r.owner_host },
    startedAtMs: r.started_at_ms,
  };
}

export interface JobRow {
  id: string;
  job_type: string;
  status: JobStatus;
  params_json: string;
  result_json: string | null;
  error: string | null;
  progress: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export function jobFromRow(r: JobRow): JobRecord {
  return {
    jobId: r.id,
    jobType: r.job_type,
    status: r.status,
    params: JSON.parse(r.params_json),
    result: r.result_json === null ? null : JSON.parse(r.result_json),
    error: r.error,
    progress: r.progress,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

export interface IngestionJobRow {
  id: string;
  tenant_id: string;
  domain: string;
  filename: string;
  source_file_id: string | null;
  status: IngestionJob["status"];
  error_code: string | null;
  error: string | null;
  chunks_indexed: number;
  points_created: number;
  points_soft_deleted: number;
  created_at: string;
  finished_at: string | null;
}

export function ingestionJobFromRow(r: IngestionJobRow): IngestionJob {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    domain: r.domain,
    filename: r.filename,
    sourceFileId: r.source_file_id ?? null,
    status: r.status,
    errorCode: r.error_code ?? null,
    error: r.error ?? null,
    chunksIndexed: r.chunks_indexed,
    pointsCreated: r.points_created,
    pointsSoftDeleted: r.points_soft_deleted,
    createdAt: r.created_at,
    finishedAt: r.finished_at ?? null,
  };
}

export function apiKeyFromRow(r: Record<string, string | null>): ApiKeyRecord {
  return {
    id: r.id!,
    tenantId: r.tenant_id!,
    salt: r.salt!,
    hash: r.hash!,
    scopes: JSON.parse(r.scopes_json!),
    createdAt: r.created_at!,
    revokedAt: r.revoked_at ?? null,
  };
}

export function tenantDomainFromRow(r: Record<string, string>): TenantDomain {
  return {
    tenantId: r.tenant_id!,
    domain: r.domain!,
    displayName: r.display_name!,
    status: r.status as "active" | "disabled",
    createdAt: r.created_at!,
    updatedAt: r.updated_at!,
  };
}

export function queryFromRow(r: Record<string, string>): QueryRecord {
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

/** The columns of `queries` for a record, in the order the INSERTs name them. */
export function queryColumns(q: QueryRecord): unknown[] {
  return [
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
  ];
}

export interface ExperimentRow {
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

/** The columns of `experiments` for a record (the verdict column also holds the collection figures and tags), in the INSERTs' order. */
export function experimentColumns(e: ExperimentRecord): unknown[] {
  return [
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
  ];
}

export function experimentFromRow(r: ExperimentRow): ExperimentRecord {
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

/** Results rows (in strategy, position order) -> results by strategy. */
export function resultsFromRows(rows: Array<{ strategy: string; result_json: string }>): Record<string, QuestionResult[]> {
  const out: Record<string, QuestionResult[]> = {};
  for (const row of rows) (out[row.strategy] ??= []).push(JSON.parse(row.result_json) as QuestionResult);
  return out;
}
