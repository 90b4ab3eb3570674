import { mkdirSync } from "node:fs";
import type { Chunkeval, ChunkevalApi } from "./api/index.js";
import type { ChunkevalConfig } from "./config/schema.js";
import { bindApi } from "./composition/api.js";
import { composeModels } from "./composition/models.js";
import { composeVectorSpaces } from "./composition/vector-spaces.js";
import { createMetricRegistry, type MetricPlugins } from "./domain/metric-registry/registry.js";
import type { CacheMaintenance } from "./domain/ports/caches.js";
import type { ServiceContext } from "./services/context.js";
import { checkStrategySettings } from "./services/corpus/strategies.js";
import { ingestionUpkeep } from "./services/ingestion/ingestion-upkeep.js";
import { v1Surface } from "./services/ingestion/v1-surface.js";
import { jobQueues } from "./services/jobs/job-queues.js";
import { metadataBackendFor } from "./stores/metadata/registry.js";
import { originalsBackendFor } from "./stores/originals/registry.js";
import { currentOwner } from "./stores/owner.js";
import { createStrategyRegistry } from "./strategies/registry.js";
import { registerStrategyModules } from "./strategies/strategy-module.js";

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
  // Strategy modules join the registry before anything reads it: variants, `all`, GET /strategies.
  await registerStrategyModules(strategies, config.strategyModules ?? []);
  await checkStrategySettings(strategies, config);
  const metrics = createMetricRegistry(extensions.metrics);
  mkdirSync(config.dataDir, { recursive: true });
  // The cache is its own file under cache_dir, so CI can keep the folder between runs (docs/configuration.md "Configuration").
  const metadataBackend = metadataBackendFor(config.metadataStoreUri);
  const store = await metadataBackend.open(config.metadataStoreUri, { cacheDir: config.cacheDir, poolSize: config.postgresPoolSize });
  const originals = await originalsBackendFor(config.metadataStoreUri).open(config.metadataStoreUri, config.dataDir);
  const owner = currentOwner();
  const models = composeModels(config, { embeddings: store.embeddingCache, completions: store.completionCache });
  const spaces = composeVectorSpaces(config, { chunks: store.chunks, dataDirectoryId: () => store.dataDirectoryId() }, owner);

  const context: ServiceContext = {
    config,
    owner,
    documents: store.documents,
    chunks: store.chunks,
    queries: store.queries,
    strategies,
    metrics,
    originals,
    vectors: spaces.vectors,
    embedder: models.embedder,
    generator: models.generator,
    llm: models.llm,
    completer: models.completer,
    judge: models.judge,
    experiments: store.experiments,
    collections: store.collections,
    jobs: store.jobs,
    transaction: (fn) => store.transaction(fn),
  };

  // Jobs are shared by every process on the store (PostgreSQL) when its backend has a job queue: then /v1 ingestions are queue jobs too.
  const openJobQueue = metadataBackend.openJobQueue;
  const sharedQueue = openJobQueue !== undefined;
  const v1 = v1Surface({
    context,
    repo: store.ingestion,
    points: spaces.points,
    originals,
    jobs: store.jobs,
    storeReachable: () => store.dataDirectoryId(),
    sharedQueue,
  });
  const upkeep = ingestionUpkeep({
    repo: store.ingestion,
    points: spaces.points,
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
  const close = async () => {
    if (closed) return;
    closed = true;
    await v1.drain();
    await models.close();
    await spaces.close();
    await originals.close();
    await store.close();
  };
  const app = bindApi({ context, store, v1, upkeep, queues, sharedQueue, rawVectors: spaces.rawVectors, close });
  return { app, internals: { context, metadataStore: store, tenantsRepo: store.tenants, ingestionRepo: store.ingestion, v1: v1.open } };
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
