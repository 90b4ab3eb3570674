import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { MetadataBackend } from "../metadata/backend.js";
import { CACHE_FILE, DATABASE_FILE } from "./files.js";

/** The file a `metadata_store_uri` of this backend names: a local path, or `sqlite://` and one. */
const fileOf = (uri: string) => (uri.toLowerCase().startsWith("sqlite://") ? uri.slice("sqlite://".length) : uri);

/**
 * The metadata store in a SQLite file (the default: `chunkeval.sqlite` in the data directory), its
 * cache in `cache_dir`. The driver loads on first open, not when the configuration names the backend.
 */
export const sqliteBackend: MetadataBackend = {
  name: "sqlite",
  schemes: ["sqlite"],
  defaultUri: (dataDir) => join(dataDir, DATABASE_FILE),
  localPath: fileOf,
  async open(uri, { cacheDir }) {
    const database = fileOf(uri);
    mkdirSync(dirname(database), { recursive: true });
    mkdirSync(cacheDir, { recursive: true });
    const { openSqliteMetadataStore } = await import("./metadata-store.js");
    return openSqliteMetadataStore({ database, cache: join(cacheDir, CACHE_FILE) });
  },
  async openCacheMaintenance(uri, { cacheDir }) {
    mkdirSync(cacheDir, { recursive: true });
    const { openSqliteCacheMaintenance } = await import("./metadata-store.js");
    return openSqliteCacheMaintenance({ database: fileOf(uri), cache: join(cacheDir, CACHE_FILE) });
  },
};
