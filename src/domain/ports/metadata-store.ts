import type { CompletionCache, EmbeddingCache } from "./caches.js";
import type { ChunksRepo } from "./chunks.js";
import type { CollectionsRepo } from "./collections.js";
import type { DocumentsRepo } from "./documents.js";
import type { ExperimentsRepo } from "./experiments.js";
import type { IngestionRepo } from "./ingestion.js";
import type { JobsRepo } from "./jobs.js";
import type { QueriesRepo } from "./queries.js";
import type { TenantsRepo } from "./tenants.js";

/** Every repository of the metadata store. */
export interface MetadataRepositories {
  documents: DocumentsRepo;
  chunks: ChunksRepo;
  queries: QueriesRepo;
  experiments: ExperimentsRepo;
  collections: CollectionsRepo;
  jobs: JobsRepo;
  tenants: TenantsRepo;
  /** /v1 source files, versions and ingestion jobs. */
  ingestion: IngestionRepo;
  embeddingCache: EmbeddingCache;
  completionCache: CompletionCache;
}

/**
 * The metadata store: everything but vectors and uploaded bytes. Services and transports see it
 * only through these ports; an adapter under `stores/` implements it (chosen by
 * `metadata_store_uri`). Every operation is async and each documented as atomic is atomic on its
 * own, across processes sharing the store.
 */
export interface MetadataStore extends MetadataRepositories {
  /**
   * Runs `fn` over a view of the store whose operations all belong to one transaction, committed
   * when `fn` resolves and rolled back when it throws (the error is rethrown). Nothing another
   * caller does meanwhile lands inside it. Transactions do not nest: inside `fn`, use only `tx`.
   */
  transaction<T>(fn: (tx: MetadataRepositories) => Promise<T>): Promise<T>;
  /** The data directory's own id, made when the store is first created and never changed (claims the vector store). */
  dataDirectoryId(): Promise<string>;
  /** Waits for operations under way, then releases connections; the store is unusable after. */
  close(): Promise<void>;
}
