import type { MetadataBackend } from "../metadata/backend.js";

/**
 * The metadata store in a PostgreSQL database (`postgres://…` or `postgresql://…`), its caches in
 * the same database, shared by every process using it. The driver loads on first open, not when
 * the configuration names the backend.
 */
export const postgresBackend: MetadataBackend = {
  name: "postgres",
  schemes: ["postgres", "postgresql"],
  // Never the default (the registry's first backend is); a URI names the database.
  defaultUri: () => {
    throw new Error("the PostgreSQL metadata store has no default location: set metadata_store_uri to a postgres:// URI");
  },
  async open(uri, options) {
    const [{ openPostgresStore }, { configurePools }] = await Promise.all([import("./store.js"), import("./executor.js")]);
    // The process's one pool per database (store, originals, job queue) is sized by postgres_pool_size.
    if (options.poolSize !== undefined) configurePools({ size: options.poolSize });
    return openPostgresStore(uri);
  },
  async openCacheMaintenance(uri) {
    const { openPostgresCacheMaintenance } = await import("./cache-maintenance.js");
    return openPostgresCacheMaintenance(uri);
  },
  async openJobQueue(uri, owner, handlers, options) {
    const { PostgresJobQueue } = await import("./job-queue.js");
    return PostgresJobQueue.open(uri, owner, handlers, options);
  },
};
