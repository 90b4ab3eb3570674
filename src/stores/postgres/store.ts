import type pg from "pg";
import type { MetadataRepositories, MetadataStore } from "../../domain/ports/metadata-store.js";
import { PostgresCompletionCache, PostgresEmbeddingCache } from "./cache-repos.js";
import { PostgresChunksRepo } from "./chunks-repo.js";
import { PostgresCollectionsRepo } from "./collections-repo.js";
import { PostgresDocumentsRepo } from "./documents-repo.js";
import { createPool, PoolExecutor, type Executor } from "./executor.js";
import { PostgresExperimentsRepo } from "./experiments-repo.js";
import { PostgresIngestionRepo } from "./ingestion-repo.js";
import { PostgresJobsRepo } from "./jobs-repo.js";
import { migrate } from "./migrations.js";
import { PostgresQueriesRepo } from "./queries-repo.js";
import { PostgresTenantsRepo } from "./tenants-repo.js";

function repositories(db: Executor): MetadataRepositories {
  return {
    documents: new PostgresDocumentsRepo(db),
    chunks: new PostgresChunksRepo(db),
    queries: new PostgresQueriesRepo(db),
    experiments: new PostgresExperimentsRepo(db),
    collections: new PostgresCollectionsRepo(db),
    jobs: new PostgresJobsRepo(db),
    tenants: new PostgresTenantsRepo(db),
    ingestion: new PostgresIngestionRepo(db),
    embeddingCache: new PostgresEmbeddingCache(db),
    completionCache: new PostgresCompletionCache(db),
  };
}

/** The metadata store on a PostgreSQL database: a connection pool, one pooled connection per transaction. */
class PostgresMetadataStore implements MetadataStore {
  readonly documents;
  readonly chunks;
  readonly queries;
  readonly experiments;
  readonly collections;
  readonly jobs;
  readonly tenants;
  readonly ingestion;
  readonly embeddingCache;
  readonly completionCache;
  private readonly executor: PoolExecutor;

  constructor(private readonly pool: pg.Pool) {
    this.executor = new PoolExecutor(pool);
    const repos = repositories(this.executor);
    this.documents = repos.documents;
    this.chunks = repos.chunks;
    this.queries = repos.queries;
    this.experiments = repos.experiments;
    this.collections = repos.collections;
    this.jobs = repos.jobs;
    this.tenants = repos.tenants;
    this.ingestion = repos.ingestion;
    this.embeddingCache = repos.embeddingCache;
    this.completionCache = repos.completionCache;
  }

  transaction<T>(fn: (tx: MetadataRepositories) => Promise<T>): Promise<T> {
    return this.executor.atomic((tx) => fn(repositories(tx)));
  }

  async dataDirectoryId(): Promise<string> {
    return (await this.pool.query<{ id: string }>("SELECT id FROM data_directory")).rows[0]!.id;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * Opens the metadata store at a `postgres://` or `postgresql://` URI and migrates its schema
 * (under an advisory lock, so replicas starting together migrate once).
 */
export async function openPostgresStore(uri: string): Promise<MetadataStore> {
  const pool = createPool(uri);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresMetadataStore(pool);
}
