import { documentChunks } from "./services/corpus/document-chunks.js";
import { mkdirSync } from "node:fs";
import type { Chunkeval, ChunkevalApi } from "./api/index.js";
import type { ChunkevalConfig } from "./config/schema.js";
import { DEFAULTS } from "./config/defaults.js";
import { CachedEmbedder } from "./embedders/cache.js";
import type { Embedder } from "./embedders/embedder.js";
import { createEmbedder, createEmbedderRegistry } from "./embedders/registry.js";
import type { Generator } from "./generators/generator.js";
import { createJudge, createJudgeRegistry } from "./evaluators/registry.js";
import { cachedCompleter, type CompleteFn } from "./generators/cached-completer.js";
import type { Judge } from "./domain/judge.js";
import type { PointsStore } from "./stores/vectors/points-store.js";
import type { QueuedIngestionInput } from "./services/ingestion/ingestion.js";
import { ingestionUpkeep } from "./services/ingestion/ingestion-upkeep.js";
import { v1Surface } from "./services/ingestion/v1-surface.js";
import { jobQueues } from "./services/jobs/job-queues.js";
import { once } from "./services/once.js";
import { cancelJob, countQueuedRequests, getJob, JobRunner, listJobs } from "./services/jobs/jobs.js";
import { type ChildJobs, type JobHandlers, type JobQueue, type JobQueueOptions, type QueueClaim } from "./domain/ports/job-queue.js";
import { queuedUnits, runQueuedUnit, type ProcessUnitInput } from "./services/benchmarking/processing-units.js";
import type { RunOptions } from "./domain/types.js";
import { sweepAbandoned } from "./services/corpus/generations.js";
import { runDoctor } from "./services/corpus/doctor.js";
import { currentOwner } from "./stores/owner.js";
import { createGenerator, createGeneratorRegistry } from "./generators/registry.js";
import type { ServiceContext } from "./services/context.js";
import { askQuestion, getQuery, type AskInput } from "./services/corpus/ask.js";
import { deleteDocument, listDocuments, requireDocument, uploadDocument, type UploadInput, type UploadOptions } from "./services/corpus/documents.js";
import { checkProcessInput, processDocument, type ProcessOptions } from "./services/corpus/process.js";
import { runBenchmark } from "./services/benchmarking/bench.js";
import { checkBenchInput, planBenchVariants, type BenchInput } from "./services/benchmarking/bench-input.js";
import {
  addToCollection,
  createCollection,
  deleteCollection,
  listCollections,
  removeFromCollection,
  requireCollection,
} from "./services/corpus/collections.js";
import { estimateBench, type EstimateInput } from "./services/benchmarking/sweep-estimate.js";
import { checkGenerateQuestionsInput, generateQuestions } from "./services/questions/question-generation.js";
import type { GenerateQuestionsInput } from "./services/questions/generated-questions.js";
import { checkQuestions, type QuestionsCheckInput } from "./services/questions/questions-check.js";
import { experimentResults, getExperiment, listExperiments } from "./services/benchmarking/experiments.js";
import { storedBaseline } from "./services/benchmarking/ci-gates.js";
import { renderReport, type ReportOptions } from "./services/benchmarking/reports.js";
import { ciOutputs, type CiOutputsInput } from "./services/benchmarking/ci-outputs.js";
import { checkStrategySettings, listStrategies } from "./services/corpus/strategies.js";
import { tenantService } from "./services/ingestion/tenants.js";
import { listPoints, requirePoint, searchPoints } from "./services/ingestion/points.js";
import type { ChunkingLlm } from "./strategies/strategy.js";
import { createStrategyRegistry } from "./strategies/registry.js";
import { createMetricRegistry, type MetricPlugins } from "./domain/metric-registry/registry.js";
import { registerStrategyModules } from "./strategies/strategy-module.js";
import { metadataBackendFor } from "./stores/metadata/registry.js";
import type { CacheMaintenance } from "./domain/ports/caches.js";
import { vectorBackendFor } from "./stores/vectors/registry.js";
import { originalsBackendFor } from "./stores/originals/registry.js";
import type { VectorStore } from "./stores/vectors/vector-store.js";

/** What a composition adds to the built-in pieces in code (a strategy module is named in the configuration instead). */
export interface CompositionExtensions {
  /** Metrics computed, averaged, gated and reported after the built-in ones (domain/metric-registry/metric.ts). */
  metrics?: MetricPlugins;
}

/**
 * Builds chunkeval and returns the facade with the internals beside it. Only tests and
 * measurement scripts that inspect the stores use the internals; everything else calls
 * {@link createChunkeval}.
 */
export async function composeChunkeval(config: Readonly<ChunkevalConfig>, extensions: CompositionExtensions = {}) {
  const strategies = createStrategyRegistry();
  const metrics = createMetricRegistry(extensions.metrics);
  // Strategy modules join the registry before anything reads it: variants, `all`, GET /strategies.
  await registerStrategyModules(strategies, config.strategyModules ?? []);
  await checkStrategySettings(strategies, config);
  mkdirSync(config.dataDir, { recursive: true });
  // The cache is its own file under cache_dir, so CI can keep the folder between runs (docs/configuration.md "Configuration").
  const store = await metadataBackendFor(config.metadataStoreUri).open(config.metadataStoreUri, {
    cacheDir: config.cacheDir,
    poolSize: config.postgresPoolSize,
  });
  const { chunks, embeddingCache, completionCache } = store;
  const originals = await originalsBackendFor(config.metadataStoreUri).open(config.metadataStoreUri, config.dataDir);
  /** Whether jobs are shared by every process on the store (PostgreSQL): then /v1 ingestions are queue jobs too. */
  const openJobQueue = metadataBackendFor(config.metadataStoreUri).openJobQueue;
  const sharedQueue = openJobQueue !== undefined;
  const embedderRegistry = createEmbedderRegistry();
  const generatorRegistry = createGeneratorRegistry();
  const providerSettings = {
    workers: config.embedderWorkers,
    batchSize: config.embedBatchSize,
    openai: config.openai,
    huggingFace: config.huggingFace,
  };

  const vectorBackend = vectorBackendFor(config.vectorStoreUri);
  const maintenance = { delayMs: DEFAULTS.vectorMaintenanceDelayMs, versionRetentionMs: config.vectorVersionRetentionSeconds * 1000 };
  const embedders = new Map<string, Promise<CachedEmbedder>>();
  const openedVectors: VectorStore[] = [];
  const openedEmbedders: Embedder[] = [];
  const openedPoints: PointsStore[] = [];

  const owner = currentOwner();
  /** Both namespaces open only once the store is known to be this data directory's. */
  const claimedStore = once(async () => vectorBackend.claim(config.vectorStoreUri, await store.dataDirectoryId()));
  /** The vector store as it is on disk, before any cleanup (what `doctor` inspects). */
  const rawVectors = once(async () => {
    await claimedStore();
    const store = await vectorBackend.openVectors(config.vectorStoreUri, "evaluation", {
      ...maintenance,
      vectorIndexMinRows: DEFAULTS.evaluationVectorIndexMinRows,
    });
    openedVectors.push(store);
    return store;
  });
  const vectors = once(async () => {
    const store = await rawVectors();
    // Recovery rule of stores/README.md: vectors of generations that are provably abandoned go.
    await sweepAbandoned(chunks, store, owner);
    return store;
  });

  const generator = once<Generator>(() => createGenerator(generatorRegistry, config.generator, { openai: config.openai }));

  const completers = new Map<string, Promise<CompleteFn>>();
  const completer = (spec: string): Promise<CompleteFn> => {
    let made = completers.get(spec);
    if (!made) {
      made = createGenerator(generatorRegistry, spec, { openai: config.openai }).then((model) => cachedCompleter(model, completionCache));
      made.catch(() => completers.delete(spec));
      completers.set(spec, made);
    }
    return made;
  };

  const llm = once<ChunkingLlm | undefined>(async () => {
    const g = await generator();
    if (!g.isLlm) return undefined;
    const complete = await completer(config.generator);
    return { name: g.name, complete: async (prompt, signal) => (await complete(prompt, signal)).text };
  });

  const judgeRegistry = createJudgeRegistry();
  const judge = (spec = config.judge): Promise<Judge> => createJudge(judgeRegistry, spec, { embedder: () => context.embedder(), completer });

  const context: ServiceContext = {
    config,
    owner,
    documents: store.documents,
    chunks,
    queries: store.queries,
    strategies,
    metrics,
    originals,
    vectors,
    embedder(spec = config.embedder) {
      let made = embedders.get(spec);
      if (!made) {
        made = createEmbedder(embedderRegistry, spec, providerSettings).then((inner) => {
          openedEmbedders.push(inner);
          return new CachedEmbedder(inner, embeddingCache, config.embedBatchSize);
        });
        made.catch(() => embedders.delete(spec));
        embedders.set(spec, made);
      }
      return made;
    },
    generator,
    llm,
    completer,
    judge,
    experiments: store.experiments,
    collections: store.collections,
    jobs: store.jobs,
    transaction: (fn) => store.transaction(fn),
  };

  const tenants = store.tenants;
  const ingestionRepo = store.ingestion;
  const pointsStore = once(async () => {
    await claimedStore();
    const points = await vectorBackend.openPoints(config.vectorStoreUri, "v1", { ...maintenance, vectorIndexMinRows: DEFAULTS.vectorIndexMinRows });
    openedPoints.push(points);
    return points;
  });
  const v1 = v1Surface({ context, repo: ingestionRepo, points: pointsStore, originals, jobs: store.jobs, storeReachable: () => store.dataDirectoryId() });
  const upkeep = ingestionUpkeep({
    repo: ingestionRepo,
    points: pointsStore,
    originals,
    owner,
    sharedQueue,
    timeoutSeconds: config.ingestion.timeoutSeconds,
  });
  const queues = jobQueues({
    jobs: store.jobs,
    owner,
    concurrency: config.maxBackgroundJobs,
    documentExists: (id) => context.documents.exists(id),
    openShared: openJobQueue && ((handlers, options) => openJobQueue(config.metadataStoreUri, owner, handlers, options)),
    around: upkeep.withSweep,
  });

  let closed = false;
  // Each member is documented where it is declared: src/api/index.ts.
  const app: ChunkevalApi = {
    config,
    metrics,
    tenants: tenantService(tenants),
    ingestFile: async (tenantId: string, domain: string, filename: string, bytes: Buffer, queue?: JobQueue, clientGone?: AbortSignal) =>
      (await v1.open()).ingestion.ingest(tenantId, domain, filename, bytes, sharedQueue ? queue : undefined, clientGone),
    ingestionAtCapacity: (): boolean => v1.atCapacity(),
    runQueuedIngestion: async (input: QueuedIngestionInput, signal: AbortSignal, claim?: QueueClaim) =>
      (await v1.open()).ingestion.runQueued(input, signal, claim),
    ingestionJob: (tenantId: string, jobId: string) => v1.job(tenantId, jobId),
    listPoints: async (tenantId: string, filter: { domain?: string; sourceFileId?: string }, page: { offset: number; limit: number }) =>
      listPoints(ingestionRepo, (await v1.open()).points, tenantId, filter, page),
    getPoint: async (tenantId: string, pointId: string) => requirePoint((await v1.open()).points, tenantId, pointId),
    searchPoints: async (tenantId: string, query: { text: string; domain?: string; topK: number }) =>
      searchPoints(context, (await v1.open()).points, tenantId, query),
    v1Readiness: () => v1.readiness(),
    upload: (input: UploadInput, options?: UploadOptions) => uploadDocument(context, input, options),
    listDocuments: (page: { offset: number; limit: number }) => listDocuments(context, page),
    getDocument: (id: string) => requireDocument(context, id),
    documentChunks: (id: string, strategy: string) => documentChunks(context, id, strategy),
    documentIdsNamed: (filename: string) => context.documents.idsNamed(filename),
    deleteDocument: (id: string) => deleteDocument(context, id),
    createCollection: (name: string) => createCollection(context, name),
    addToCollection: (...args: Parameters<typeof addToCollection> extends [unknown, ...infer R] ? R : never) => addToCollection(context, ...args),
    removeFromCollection: (collection: string, document: string) => removeFromCollection(context, collection, document),
    deleteCollection: (collection: string) => deleteCollection(context, collection),
    getCollection: (collection: string) => requireCollection(context, collection),
    listCollections: (page: { offset: number; limit: number }) => listCollections(context, page),
    process: (documentId: string, strategies: string | string[], options?: ProcessOptions) => processDocument(context, documentId, strategies, options),
    checkProcess: async (documentId: string, strategies: string | string[]): Promise<void> => void (await checkProcessInput(context, documentId, strategies)),
    checkBench: async (input: BenchInput): Promise<void> => void (await checkBenchInput(context, input)),
    planBench: (input: Pick<BenchInput, "strategies" | "sweep" | "topK" | "chunks" | "maxVariants" | "retrievers" | "embedders">) =>
      planBenchVariants(context, input),
    ask: (input: AskInput) => askQuestion(context, input),
    getQuery: (id: string) => getQuery(context, id),
    strategies: () => listStrategies(context.strategies),
    bench: (input: BenchInput) => runBenchmark(context, input),
    queuedUnits: (children: ChildJobs) => queuedUnits(context, children),
    runProcessingUnit: (input: ProcessUnitInput, options: RunOptions) => runQueuedUnit(context, input, options),
    estimateBench: (input: EstimateInput) => estimateBench(context, input),
    generateQuestions: (input: GenerateQuestionsInput) => generateQuestions(context, input),
    checkGenerateQuestions: (input: GenerateQuestionsInput): void => void checkGenerateQuestionsInput(input),
    checkQuestions: (input: QuestionsCheckInput) => checkQuestions(context, input),
    getExperiment: (id: string) => getExperiment(context, id),
    storedBaseline: (id: string) => storedBaseline(context, id),
    listExperiments: (page: { offset: number; limit: number }) => listExperiments(context, page),
    experimentResults: (id: string) => experimentResults(context, id),
    renderReport: (id: string, options?: ReportOptions) => renderReport(context, id, options),
    ciOutputs: (input: CiOutputsInput) => ciOutputs(context, input),
    listJobs: (filter: { jobType?: string; status?: string }, page: { offset: number; limit: number }) => listJobs(context.jobs, filter, page),
    getJob: (id: string) => getJob(context.jobs, id),
    cancelJob: (id: string, queue: JobQueue) => cancelJob(context.jobs, queue, id),
    queuedRequests: () => countQueuedRequests(context.jobs),
    createJobRunner: () => JobRunner.start(context.jobs, config.maxBackgroundJobs, owner, (id) => context.documents.exists(id)),
    createJobQueue: (handlers: JobHandlers, options?: Partial<JobQueueOptions>) => queues.create(handlers, options),
    cancelSharedJobsOf: (documentId: string) => queues.cancelForDocument(documentId),
    sharedJobQueue: (): boolean => sharedQueue,
    recoverIngestions: () => upkeep.recover(),
    doctor: (options: { repair?: boolean } = {}) =>
      runDoctor(
        {
          chunks,
          vectors: rawVectors,
          owner,
          originals,
          originalLocations: async () => [...(await context.documents.allFilePaths()), ...(await ingestionRepo.allObjectPaths())],
        },
        options,
      ),
    async close() {
      if (closed) return;
      closed = true;
      await v1.drain();
      await Promise.all(openedEmbedders.map((e) => e.close().catch(() => undefined)));
      await Promise.all(openedVectors.map((v) => v.close().catch(() => undefined)));
      await Promise.all(openedPoints.map((p) => p.close()));
      await originals.close();
      await store.close();
    },
  };
  return { app, internals: { context, metadataStore: store, tenantsRepo: tenants, ingestionRepo, v1: v1.open } };
}

/** The caches alone, for `chunkeval cache`: no model, no vector store, and no data directory made where there is none. */
export function openCacheMaintenance(config: Readonly<ChunkevalConfig>): Promise<CacheMaintenance> {
  return metadataBackendFor(config.metadataStoreUri).openCacheMaintenance(config.metadataStoreUri, { cacheDir: config.cacheDir });
}

/**
 * The composition root: builds concrete adapters from the configuration and hands the services
 * one context. Transports (CLI, HTTP) and library users call the returned facade, which exposes
 * services and typed results only; no repository, store or connection leaves it.
 */
export async function createChunkeval(config: Readonly<ChunkevalConfig>, extensions: CompositionExtensions = {}): Promise<ChunkevalApi> {
  return (await composeChunkeval(config, extensions)).app;
}
export type { Chunkeval };
export type ChunkevalInternals = Awaited<ReturnType<typeof composeChunkeval>>["internals"];
