import { existsSync } from "node:fs";
import type { CacheMaintenance as CacheMaintenancePort } from "../../domain/ports/caches.js";
import type { MetadataRepositories, MetadataStore } from "../../domain/ports/metadata-store.js";
import { CACHE_WRITE_WAIT_MS, CacheMaintenance, CompletionCacheRepo, EmbeddingCacheRepo, openCacheDatabase } from "./cache-repos.js";
import { SqliteChunksRepo } from "./chunks-repo.js";
import { SqliteCollectionsRepo } from "./collections-repo.js";
import { direct, SerialConnection, serialised, type Executor } from "./connection.js";
import { dataDirectoryId, openDatabase, type Db } from "./database.js";
import { SqliteDocumentsRepo } from "./documents-repo.js";
import { SqliteExperimentsRepo } from "./experiments-repo.js";
import { SqliteIngestionRepo } from "./ingestion-repo.js";
import { SqliteJobsRepo } from "./jobs-repo.js";
import { SqliteQueriesRepo } from "./queries-repo.js";
import { SqliteTenantsRepo } from "./tenants-repo.js";

export interface SqliteMetadataStore extends MetadataStore {
  /** The data directory's database connection: for tests and measurement scripts that inspect it. */
  readonly db: Db;
}

/**
 * The metadata store in SQLite files: `database` (the data directory's) and `cache` (under
 * `cache_dir`, so CI can keep that folder between runs). One connection to each, serialised by one
 * queue (connection.ts), so a transaction's statements are the only ones between its BEGIN and
 * its end, cache operations included (the cache's first use moves rows out of the main database).
 */
export function openSqliteMetadataStore(paths: { database: string; cache: string }): SqliteMetadataStore {
  const db = openDatabase(paths.database);
  let cacheDb: Db;
  try {
    cacheDb = openCacheDatabase(paths.cache, { writeWaitMs: CACHE_WRITE_WAIT_MS });
  } catch (error) {
    db.close();
    throw error;
  }
  const repositories = {
    documents: new SqliteDocumentsRepo(db),
    chunks: new SqliteChunksRepo(db),
    queries: new SqliteQueriesRepo(db),
    experiments: new SqliteExperimentsRepo(db),
    collections: new SqliteCollectionsRepo(db),
    jobs: new SqliteJobsRepo(db),
    tenants: new SqliteTenantsRepo(db),
    ingestion: new SqliteIngestionRepo(db),
    embeddingCache: new EmbeddingCacheRepo(cacheDb, db),
    completionCache: new CompletionCacheRepo(cacheDb, db),
  };
  const through = (executor: Executor): MetadataRepositories => ({
    documents: serialised(repositories.documents, executor),
    chunks: serialised(repositories.chunks, executor),
    queries: serialised(repositories.queries, executor),
    experiments: serialised(repositories.experiments, executor),
    collections: serialised(repositories.collections, executor),
    jobs: serialised(repositories.jobs, executor),
    tenants: serialised(repositories.tenants, executor),
    ingestion: serialised(repositories.ingestion, executor),
    embeddingCache: serialised(repositories.embeddingCache, executor),
    completionCache: serialised(repositories.completionCache, executor),
  });
  const connection = new SerialConnection();
  const inTransaction = through(direct);
  return {
    db,
    ...through(connection),
    transaction: <T>(fn: (tx: MetadataRepositories) => Promise<T>): Promise<T> =>
      connection.exclusive(async () => {
        // Immediate: the write lock is taken at BEGIN, so another process's writer waits (busy_timeout) instead of failing us mid-way.
        db.exec("BEGIN IMMEDIATE");
        try {
          const result = await fn(inTransaction);
          db.exec("COMMIT");
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw error;
        }
      }),
    dataDirectoryId: () => connection.run(() => dataDirectoryId(db)),
    close: () =>
      connection.exclusive(async () => {
        if (!db.open) return;
        cacheDb.close();
        db.close();
      }),
  };
}

/**
 * `chunkeval cache`'s view of the SQLite cache: the cache file and, when the data directory has
 * one, its database (whose cache tables predate `cache_dir`). Opens nothing else.
 */
export function openSqliteCacheMaintenance(paths: { database: string; cache: string }): CacheMaintenancePort {
  const cacheDb = openCacheDatabase(paths.cache);
  let main;
  try {
    main = existsSync(paths.database) ? openDatabase(paths.database) : undefined;
  } catch (error) {
    cacheDb.close();
    throw error;
  }
  return { ...serialised(new CacheMaintenance(cacheDb, paths.cache, main), direct), location: paths.cache };
}
