// The facade: each member of the declared API (src/api/index.ts, where each is documented) bound to
// the service that does the work, over one composition's context.
import type { ChunkevalApi } from "../api/index.js";
import type { MetadataStore } from "../domain/ports/metadata-store.js";
import type { ChildJobs, JobHandlers, JobQueue, JobQueueOptions, QueueClaim } from "../domain/ports/job-queue.js";
import type { RunOptions } from "../domain/types.js";
import type { ServiceContext } from "../services/context.js";
import { askQuestion, getQuery, type AskInput } from "../services/corpus/ask.js";
import {
  addToCollection,
  createCollection,
  deleteCollection,
  listCollections,
  removeFromCollection,
  requireCollection,
} from "../services/corpus/collections.js";
import { documentChunks } from "../services/corpus/document-chunks.js";
import { deleteDocument, listDocuments, requireDocument, uploadDocument, type UploadInput, type UploadOptions } from "../services/corpus/documents.js";
import { runDoctor } from "../services/corpus/doctor.js";
import { checkProcessInput, processDocument, type ProcessOptions } from "../services/corpus/process.js";
import { listStrategies } from "../services/corpus/strategies.js";
import { runBenchmark } from "../services/benchmarking/bench.js";
import { checkBenchInput, planBenchVariants, type BenchInput } from "../services/benchmarking/bench-input.js";
import { ciOutputs, type CiOutputsInput } from "../services/benchmarking/ci-outputs.js";
import { storedBaseline } from "../services/benchmarking/ci-gates.js";
import { experimentResults, getExperiment, listExperiments } from "../services/benchmarking/experiments.js";
import { queuedUnits, runQueuedUnit, type ProcessUnitInput } from "../services/benchmarking/processing-units.js";
import { renderReport, type ReportOptions } from "../services/benchmarking/reports.js";
import { estimateBench, type EstimateInput } from "../services/benchmarking/sweep-estimate.js";
import type { QueuedIngestionInput } from "../services/ingestion/ingestion.js";
import type { ingestionUpkeep } from "../services/ingestion/ingestion-upkeep.js";
import { listPoints, requirePoint, searchPoints } from "../services/ingestion/points.js";
import { tenantService } from "../services/ingestion/tenants.js";
import type { v1Surface } from "../services/ingestion/v1-surface.js";
import { cancelJob, countQueuedRequests, getJob, JobRunner, listJobs } from "../services/jobs/jobs.js";
import type { jobQueues } from "../services/jobs/job-queues.js";
import { checkGenerateQuestionsInput, generateQuestions } from "../services/questions/question-generation.js";
import type { GenerateQuestionsInput } from "../services/questions/generated-questions.js";
import { checkQuestions, type QuestionsCheckInput } from "../services/questions/questions-check.js";
import type { VectorStore } from "../stores/vectors/vector-store.js";

/** What the facade is bound over: the services' context and the composition's parts that are not in it. */
export interface ApiParts {
  context: ServiceContext;
  store: MetadataStore;
  v1: ReturnType<typeof v1Surface>;
  upkeep: ReturnType<typeof ingestionUpkeep>;
  queues: ReturnType<typeof jobQueues>;
  /** Whether jobs are shared by every process on the store (PostgreSQL): then /v1 ingestions are queue jobs too. */
  sharedQueue: boolean;
  /** The evaluation vectors as they are on disk, before any cleanup (what `doctor` inspects). */
  rawVectors: () => Promise<VectorStore>;
  close: () => Promise<void>;
}

type Page = { offset: number; limit: number };

export function bindApi({ context, store, v1, upkeep, queues, sharedQueue, rawVectors, close }: ApiParts): ChunkevalApi {
  const { config, owner, originals } = context;
  return {
    config,
    metrics: context.metrics,
    // /v1 ingestion
    tenants: tenantService(store.tenants),
    ingestFile: (tenantId: string, domain: string, filename: string, bytes: Buffer, queue?: JobQueue, clientGone?: AbortSignal) =>
      v1.ingest(tenantId, domain, filename, bytes, queue, clientGone),
    ingestionAtCapacity: () => v1.atCapacity(),
    runQueuedIngestion: async (input: QueuedIngestionInput, signal: AbortSignal, claim?: QueueClaim) =>
      (await v1.open()).ingestion.runQueued(input, signal, claim),
    ingestionJob: (tenantId: string, jobId: string) => v1.job(tenantId, jobId),
    listPoints: async (tenantId: string, filter: { domain?: string; sourceFileId?: string }, page: Page) =>
      listPoints(store.ingestion, (await v1.open()).points, tenantId, filter, page),
    getPoint: async (tenantId: string, pointId: string) => requirePoint((await v1.open()).points, tenantId, pointId),
    searchPoints: async (tenantId: string, query: { text: string; domain?: string; topK: number }) =>
      searchPoints(context, (await v1.open()).points, tenantId, query),
    v1Readiness: () => v1.readiness(),
    recoverIngestions: () => upkeep.recover(),
    // Documents and collections
    upload: (input: UploadInput, options?: UploadOptions) => uploadDocument(context, input, options),
    listDocuments: (page: Page) => listDocuments(context, page),
    getDocument: (id: string) => requireDocument(context, id),
    documentChunks: (id: string, strategy: string) => documentChunks(context, id, strategy),
    documentIdsNamed: (filename: string) => context.documents.idsNamed(filename),
    deleteDocument: (id: string) => deleteDocument(context, id),
    createCollection: (name: string) => createCollection(context, name),
    addToCollection: (...args: Parameters<typeof addToCollection> extends [unknown, ...infer R] ? R : never) => addToCollection(context, ...args),
    removeFromCollection: (collection: string, document: string) => removeFromCollection(context, collection, document),
    deleteCollection: (collection: string) => deleteCollection(context, collection),
    getCollection: (collection: string) => requireCollection(context, collection),
    listCollections: (page: Page) => listCollections(context, page),
    // Processing and retrieval
    process: (documentId: string, strategies: string | string[], options?: ProcessOptions) => processDocument(context, documentId, strategies, options),
    checkProcess: async (documentId: string, strategies: string | string[]) => void (await checkProcessInput(context, documentId, strategies)),
    ask: (input: AskInput) => askQuestion(context, input),
    getQuery: (id: string) => getQuery(context, id),
    strategies: () => listStrategies(context.strategies),
    // Benchmarks
    bench: (input: BenchInput) => runBenchmark(context, input),
    checkBench: async (input: BenchInput) => void (await checkBenchInput(context, input)),
    planBench: (input: Pick<BenchInput, "strategies" | "sweep" | "topK" | "chunks" | "maxVariants" | "retrievers" | "embedders">) =>
      planBenchVariants(context, input),
    estimateBench: (input: EstimateInput) => estimateBench(context, input),
    queuedUnits: (children: ChildJobs) => queuedUnits(context, children),
    runProcessingUnit: (input: ProcessUnitInput, options: RunOptions) => runQueuedUnit(context, input, options),
    getExperiment: (id: string) => getExperiment(context, id),
    storedBaseline: (id: string) => storedBaseline(context, id),
    listExperiments: (page: Page) => listExperiments(context, page),
    experimentResults: (id: string) => experimentResults(context, id),
    renderReport: (id: string, options?: ReportOptions) => renderReport(context, id, options),
    ciOutputs: (input: CiOutputsInput) => ciOutputs(context, input),
    // Questions
    generateQuestions: (input: GenerateQuestionsInput) => generateQuestions(context, input),
    checkGenerateQuestions: (input: GenerateQuestionsInput) => void checkGenerateQuestionsInput(input),
    checkQuestions: (input: QuestionsCheckInput) => checkQuestions(context, input),
    // Jobs
    listJobs: (filter: { jobType?: string; status?: string }, page: Page) => listJobs(context.jobs, filter, page),
    getJob: (id: string) => getJob(context.jobs, id),
    cancelJob: (id: string, queue: JobQueue) => cancelJob(context.jobs, queue, id),
    queuedRequests: () => countQueuedRequests(context.jobs),
    createJobRunner: () => JobRunner.start(context.jobs, config.maxBackgroundJobs, owner, (id) => context.documents.exists(id)),
    createJobQueue: (handlers: JobHandlers, options?: Partial<JobQueueOptions>) => queues.create(handlers, options),
    cancelSharedJobsOf: (documentId: string) => queues.cancelForDocument(documentId),
    sharedJobQueue: () => sharedQueue,
    // Operations
    doctor: (options: { repair?: boolean } = {}) =>
      runDoctor({ chunks: context.chunks, vectors: rawVectors, owner, originals, documents: context.documents, ingestion: store.ingestion }, options),
    close,
  };
}
