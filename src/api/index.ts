/**
 * chunkeval's API, declared: what the CLI, the HTTP server and library users call, one interface
 * per surface. `createChunkeval` (src/api/create.ts) builds it from the configuration; the
 * services under src/services/ implement each member. Members are properties, not methods, so
 * that their parameters are checked strictly against the implementation; results are the
 * services' own types. Types only: importing this module loads nothing.
 */
import type { ChunkevalConfig } from "../config/schema.js";
import type { RunOptions } from "../domain/types.js";
import type { ChildJobs, JobHandlers, JobQueue, JobQueueOptions, QueueClaim } from "../domain/ports/job-queue.js";
import type { AskInput, askQuestion, getQuery } from "../services/corpus/ask.js";
import type {
  addToCollection,
  createCollection,
  deleteCollection,
  listCollections,
  removeFromCollection,
  requireCollection,
} from "../services/corpus/collections.js";
import type { documentChunks } from "../services/corpus/document-chunks.js";
import type { deleteDocument, listDocuments, requireDocument, uploadDocument, UploadInput, UploadOptions } from "../services/corpus/documents.js";
import type { runDoctor } from "../services/corpus/doctor.js";
import type { ProcessOptions, processDocument } from "../services/corpus/process.js";
import type { listStrategies } from "../services/corpus/strategies.js";
import type { runBenchmark } from "../services/benchmarking/bench.js";
import type { BenchInput, planBenchVariants } from "../services/benchmarking/bench-input.js";
import type { storedBaseline } from "../services/benchmarking/ci-gates.js";
import type { experimentResults, getExperiment, listExperiments } from "../services/benchmarking/experiments.js";
import type { ProcessUnitInput, queuedUnits, runQueuedUnit } from "../services/benchmarking/processing-units.js";
import type { renderReport, ReportOptions } from "../services/benchmarking/reports.js";
import type { estimateBench, EstimateInput } from "../services/benchmarking/sweep-estimate.js";
import type { GenerateQuestionsInput } from "../services/questions/generated-questions.js";
import type { generateQuestions } from "../services/questions/question-generation.js";
import type { checkQuestions, QuestionsCheckInput } from "../services/questions/questions-check.js";
import type { cancelJob, getJob, JobRunner, listJobs } from "../services/jobs/jobs.js";
import type { IngestionResult, QueuedIngestionInput } from "../services/ingestion/ingestion.js";
import type { IngestionJob } from "../domain/ports/ingestion.js";
import type { listPoints, requirePoint, searchPoints } from "../services/ingestion/points.js";
import type { tenantService } from "../services/ingestion/tenants.js";

import type { CorpusTarget } from "../services/corpus/collections.js";
import type { ReportFormat } from "../services/benchmarking/reports.js";
import type { ReportView } from "../reports/render.js";
import type { GateRequest, RegressionPlan, RunComparison } from "../services/benchmarking/ci-gates.js";
import type { CiOutputs, CiOutputsInput, LinkedReport } from "../services/benchmarking/ci-outputs.js";
import type { Gate } from "../services/benchmarking/gates.js";
import type { Baseline } from "../services/benchmarking/baseline.js";
import type { MetricRegistry } from "../domain/metric-registry/registry.js";
import type { ChunksImport } from "../strategies/imported-chunks.js";
import type { QuestionGenerationMetadata } from "../services/questions/generated-questions.js";
import type { JobRecord } from "../services/jobs/jobs.js";
import type { Principal, Scope } from "../services/ingestion/tenants.js";

// The inputs a library user passes: named where the members use them.
export type {
  AskInput,
  BenchInput,
  ChunksImport,
  CorpusTarget,
  EstimateInput,
  GenerateQuestionsInput,
  ProcessOptions,
  ProcessUnitInput,
  QueuedIngestionInput,
  QuestionsCheckInput,
  ReportFormat,
  ReportOptions,
  ReportView,
  RunOptions,
  UploadInput,
  UploadOptions,
};
// What the members return or the transports present, where a caller names it.
export type {
  Baseline,
  CiOutputs,
  CiOutputsInput,
  Gate,
  GateRequest,
  JobRecord,
  LinkedReport,
  Principal,
  QuestionGenerationMetadata,
  RegressionPlan,
  RunComparison,
  Scope,
};

/** What an asynchronous service function resolves to (results are named by the service that makes them). */
type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
/** A page of a listing: how many to skip, and at most how many to return. */
export interface Page {
  offset: number;
  limit: number;
}

/** Documents: upload (any supported format), read back, list, delete. */
export interface DocumentsApi {
  /** Stores a document, or returns the one already holding the same bytes (`alreadyStored`) unless `forceNew`. */
  upload: (input: UploadInput, options?: UploadOptions) => Promise<Result<typeof uploadDocument>>;
  /** Stored documents, newest first. */
  listDocuments: (page: Page) => Promise<Result<typeof listDocuments>>;
  /** One document's record, its extracted text and blocks; NotFoundError when there is none. */
  getDocument: (id: string) => Promise<Result<typeof requireDocument>>;
  /** The chunks a processed strategy (or variant) cut the document into, with offsets, pages and tokens. */
  documentChunks: (id: string, strategy: string) => Promise<Result<typeof documentChunks>>;
  /** The ids of the documents stored under this file name, newest first. */
  documentIdsNamed: (filename: string) => Promise<string[]>;
  /** Deletes a document with its chunks, vectors, queries and original file. */
  deleteDocument: (id: string) => Promise<Result<typeof deleteDocument>>;
}

/** Collections: several documents benchmarked as one corpus. */
export interface CollectionsApi {
  createCollection: (name: string) => Promise<Result<typeof createCollection>>;
  /** Adds stored documents (by id) or new uploads to a collection (`create` makes it first when missing). */
  addToCollection: (
    idOrName: string,
    documents: Array<{ id: string } | UploadInput>,
    options?: RunOptions & { create?: boolean },
  ) => Promise<Result<typeof addToCollection>>;
  removeFromCollection: (collection: string, document: string) => Promise<Result<typeof removeFromCollection>>;
  deleteCollection: (collection: string) => Promise<Result<typeof deleteCollection>>;
  /** A collection by id or name, with its documents; NotFoundError when there is none. */
  getCollection: (collection: string) => Promise<Result<typeof requireCollection>>;
  listCollections: (page: Page) => Promise<Result<typeof listCollections>>;
}

/** Processing and retrieval: strategies cut documents into chunks, which are embedded, stored and searched. */
export interface ProcessingApi {
  /** The strategies this composition knows (built-in and the user's modules), with their parameters. */
  strategies: () => Result<typeof listStrategies>;
  /** Chunks, embeds and stores a document with each strategy (or variant). */
  process: (documentId: string, strategies: string | string[], options?: ProcessOptions) => Promise<Result<typeof processDocument>>;
  /** Refuses a processing request exactly as `process` would, without doing any work (background requests). */
  checkProcess: (documentId: string, strategies: string | string[]) => Promise<void>;
  /** Answers a question from the top-k chunks of a processed strategy, and records the query. */
  ask: (input: AskInput) => Promise<Result<typeof askQuestion>>;
  getQuery: (id: string) => Promise<Result<typeof getQuery>>;
}

/** Benchmarks: strategies compared on questions, stored as experiments, rendered as reports. */
export interface BenchmarksApi {
  /** The metrics this composition computes, averages, gates and reports: the built-in ones and any it was composed with. */
  readonly metrics: MetricRegistry;
  /** Runs a benchmark of a document or collection and stores its experiment. */
  bench: (input: BenchInput) => Promise<Result<typeof runBenchmark>>;
  /** Refuses a benchmark request exactly as `bench` would, without doing any work (background requests). */
  checkBench: (input: BenchInput) => Promise<void>;
  /** A bench's variant keys; an unknown strategy is invalid input, checked before anything is read. */
  planBench: (
    input: Pick<BenchInput, "strategies" | "sweep" | "topK" | "chunks" | "maxVariants" | "retrievers" | "embedders">,
  ) => Promise<Result<typeof planBenchVariants>>;
  /** A bench's variants, runs, cost and time, estimated before anything is spent. */
  estimateBench: (input: EstimateInput) => Promise<Result<typeof estimateBench>>;
  /** A benchmark's processing units as child jobs of the shared queue (`BenchInput.units`). */
  queuedUnits: (children: ChildJobs) => ReturnType<typeof queuedUnits>;
  /** Runs one `process_unit` job: a (document, variant) a benchmark queued; returns what it spent. */
  runProcessingUnit: (input: ProcessUnitInput, options: RunOptions) => Promise<Result<typeof runQueuedUnit>>;
  getExperiment: (id: string) => Promise<Result<typeof getExperiment>>;
  /** A stored experiment as the baseline a run is compared with (`bench --baseline ID`). */
  storedBaseline: (id: string) => Promise<Result<typeof storedBaseline>>;
  listExperiments: (page: Page) => Promise<Result<typeof listExperiments>>;
  /** An experiment's per-question results. */
  experimentResults: (id: string) => Promise<Result<typeof experimentResults>>;
  /** An experiment's report (HTML or Markdown, managerial or technical). */
  renderReport: (id: string, options?: ReportOptions) => Promise<Result<typeof renderReport>>;
  /** What a CI system reads of a finished benchmark: its gates' outcomes, the run against a baseline, JUnit XML, the Markdown summary, the baseline file. */
  ciOutputs: (input: CiOutputsInput) => Promise<CiOutputs>;
}

/** Question sets: generated from documents, or checked against them. */
export interface QuestionsApi {
  generateQuestions: (input: GenerateQuestionsInput) => Promise<Result<typeof generateQuestions>>;
  /** A generation's input refused as the run would refuse it (count, budget within its cap), before a job is queued. */
  checkGenerateQuestions: (input: GenerateQuestionsInput) => void;
  /** A questions file checked against its document or collection: references located, duplicates, copied wording. */
  checkQuestions: (input: QuestionsCheckInput) => Promise<Result<typeof checkQuestions>>;
}

/** Jobs: background requests, the in-process runner, and the queue shared on PostgreSQL. */
export interface JobsApi {
  listJobs: (filter: { jobType?: string; status?: string }, page: Page) => Promise<Result<typeof listJobs>>;
  getJob: (id: string) => Promise<Result<typeof getJob>>;
  /** Stops a job that has not ended, through the transport's queue; NotFoundError for none, ConflictError for one that ended. */
  cancelJob: (id: string, queue: JobQueue) => Promise<Result<typeof cancelJob>>;
  /** Background requests waiting to run (a server refuses more than max_queued_jobs). */
  queuedRequests: () => Promise<number>;
  /** Only a server runs jobs: creating the runner marks jobs left unfinished by a previous run failed. */
  createJobRunner: () => Promise<JobRunner>;
  /** The job queue of the metadata store: on PostgreSQL shared by every process; otherwise this process's runner. */
  createJobQueue: (handlers: JobHandlers, options?: Partial<JobQueueOptions>) => Promise<JobQueue>;
  /** Fails a document's queued and running jobs in the shared queue (PostgreSQL), for a delete from a process that runs none. */
  cancelSharedJobsOf: (documentId: string) => Promise<void>;
  /** Whether jobs are shared by every process on the store (PostgreSQL), so a `worker` can run them. */
  sharedJobQueue: () => boolean;
}

/** The multi-tenant `/v1` ingestion surface: tenants and keys, files into domains, points and search. */
export interface IngestionApi {
  /** Tenants, API keys and domains. */
  tenants: ReturnType<typeof tenantService>;
  /**
   * Parses, chunks, embeds and indexes a file into a domain; `clientGone` cancels it unless its version was committed first.
   * `queue` is used only when jobs are shared (PostgreSQL): then the upload is a job any replica may run.
   */
  ingestFile: (tenantId: string, domain: string, filename: string, bytes: Buffer, queue?: JobQueue, clientGone?: AbortSignal) => Promise<IngestionResult>;
  /** Whether this process runs INGESTION_MAX_CONCURRENCY ingestions now: an upload is refused before its body is read. */
  ingestionAtCapacity: () => boolean;
  /** The `v1_ingestion` queue job: runs an ingestion another process accepted. */
  runQueuedIngestion: (input: QueuedIngestionInput, signal: AbortSignal, claim?: QueueClaim) => Promise<IngestionResult>;
  ingestionJob: (tenantId: string, jobId: string) => Promise<Omit<IngestionJob, "tenantId">>;
  listPoints: (tenantId: string, filter: { domain?: string; sourceFileId?: string }, page: Page) => Promise<Result<typeof listPoints>>;
  getPoint: (tenantId: string, pointId: string) => Promise<Result<typeof requirePoint>>;
  searchPoints: (tenantId: string, query: { text: string; domain?: string; topK: number }) => Promise<Result<typeof searchPoints>>;
  /** /readyz: the metadata store and the vector store answer, and the chunks collection exists. */
  v1Readiness: () => Promise<{ ready: boolean; reason?: string }>;
  /** A server's start: ingestions a killed server left running are failed and what they wrote removed. */
  recoverIngestions: () => Promise<number>;
}

/** Operations: the settings in force, the store's health, and shutting down. */
export interface OperationsApi {
  /** The settings this composition was built from, frozen. */
  readonly config: Readonly<ChunkevalConfig>;
  /** Checks that committed chunks and stored vectors match; with `repair`, fixes what it can. */
  doctor: (options?: { repair?: boolean }) => Promise<Result<typeof runDoctor>>;
  /** Releases worker threads, LanceDB handles and the database. */
  close: () => Promise<void>;
}

/** The whole API: every surface. */
export interface ChunkevalApi extends DocumentsApi, CollectionsApi, ProcessingApi, BenchmarksApi, QuestionsApi, JobsApi, IngestionApi, OperationsApi {}
/** What `createChunkeval` (src/api/create.ts) returns: the whole API. */
export type Chunkeval = ChunkevalApi;
