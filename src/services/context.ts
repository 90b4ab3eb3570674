import type { ChunkevalConfig } from "../config/schema.js";
import type { CachedEmbedder } from "../embedders/cache.js";
import type { Generator } from "../generators/generator.js";
import type { Registry } from "../registry.js";
import type { ChunkingLlm, StrategyDefinition } from "../strategies/strategy.js";
import type { MetricRegistry } from "../domain/metric-registry/registry.js";
import type { ChunksRepo } from "../domain/ports/chunks.js";
import type { DocumentsRepo } from "../domain/ports/documents.js";
import type { QueriesRepo } from "../domain/ports/queries.js";
import type { VectorStore } from "../stores/vectors/vector-store.js";
import type { ExperimentsRepo } from "../domain/ports/experiments.js";
import type { JobsRepo } from "../domain/ports/jobs.js";
import type { Judge } from "../domain/judge.js";
import type { CompleteFn } from "../generators/cached-completer.js";
import type { Owner } from "../domain/ports/owner.js";
import type { MetadataStore } from "../domain/ports/metadata-store.js";
import type { CollectionsRepo } from "../domain/ports/collections.js";
import type { OriginalsStore } from "../domain/ports/originals.js";

/**
 * Everything a service may use, built by the composition root (src/chunkeval.ts). Services
 * depend on these ports only (the metadata store's are in domain/ports); heavy adapters (models, LanceDB) are opened on first use.
 */
export interface ServiceContext {
  config: Readonly<ChunkevalConfig>;
  /** This instance, as other processes sharing the data directory see it (owner of its pending work). */
  owner: Owner;
  documents: DocumentsRepo;
  chunks: ChunksRepo;
  queries: QueriesRepo;
  strategies: Registry<StrategyDefinition>;
  /** The metrics this composition computes, averages, gates and reports. */
  metrics: MetricRegistry;
  /** Uploaded originals, stored under generated names (`files/<document id>.<format>`). */
  originals: OriginalsStore;
  vectors(): Promise<VectorStore>;
  /** The cached embedder for a spec (default: the configured one); one instance per spec. */
  embedder(spec?: string): Promise<CachedEmbedder>;
  generator(): Promise<Generator>;
  /** The configured generator as a cached LLM, or undefined when it is not a language model. */
  llm(): Promise<ChunkingLlm | undefined>;
  /** A chat model by spec (`openai:<model>`) as a completion function cached in SQLite. */
  completer(spec: string): Promise<CompleteFn>;
  /** A judge by spec (default: the configured one): `embedding` or `openai:<model>`. */
  judge(spec?: string): Promise<Judge>;
  experiments: ExperimentsRepo;
  collections: CollectionsRepo;
  jobs: JobsRepo;
  /** Several repositories' operations as one atomic unit (MetadataStore.transaction). */
  transaction: MetadataStore["transaction"];
}
