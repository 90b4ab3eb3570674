// What a metadata backend is: the registry (./registry.ts) lists them, each adapter implements one.
import type { CacheMaintenance } from "../../domain/ports/caches.js";
import type { MetadataStore } from "../../domain/ports/metadata-store.js";
import type { JobHandlers, JobQueue, JobQueueOptions } from "../../domain/ports/job-queue.js";
import type { Owner } from "../../domain/ports/owner.js";

/** A metadata store adapter: the ports of domain/ports/metadata-store.ts over one kind of database. */
export interface MetadataBackend {
  name: string;
  /** URI schemes it serves (`postgres` for `postgres://…`); the first backend also serves local paths. */
  schemes: string[];
  /** The URI used when `metadata_store_uri` is not set. */
  defaultUri(dataDir: string): string;
  /** For a backend that keeps a local file: that file, so the configuration can resolve it against the working folder. */
  localPath?(uri: string): string;
  /** Opens (creating and migrating if needed) the store; its caches live under `cacheDir` unless the backend keeps them itself. */
  open(uri: string, options: { cacheDir: string; poolSize?: number }): Promise<MetadataStore>;
  /** The caches alone (`chunkeval cache`), creating no metadata store where there is none. */
  openCacheMaintenance(uri: string, options: { cacheDir: string }): Promise<CacheMaintenance>;
  /** A job queue every process on the store shares; a backend without one runs jobs in the process that enqueues them. */
  openJobQueue?(uri: string, owner: Owner, handlers: JobHandlers, options: JobQueueOptions): Promise<JobQueue>;
}
