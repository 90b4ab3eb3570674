import type { OriginalsStore } from "../../domain/ports/originals.js";

/** Where originals are kept, chosen with the metadata store: where the processes sharing that store all reach them. */
export interface OriginalsBackend {
  name: string;
  /** `metadata_store_uri` schemes it goes with; the first backend serves local paths (SQLite) and is the default. */
  schemes: string[];
  open(metadataStoreUri: string, dataDir: string): Promise<OriginalsStore>;
}

/** Adding a backend is its adapter and one line here. */
const BACKENDS: readonly OriginalsBackend[] = [
  { name: "local-disk", schemes: [], open: async (_uri, dataDir) => new (await import("./local-disk.js")).LocalDiskOriginals(dataDir) },
  { name: "postgres", schemes: ["postgres", "postgresql"], open: async (uri, dataDir) => new (await import("./postgres.js")).PostgresOriginals(uri, dataDir) },
];

/** The originals backend that goes with a `metadata_store_uri`: the local disk unless another backend serves its scheme. */
export function originalsBackendFor(metadataStoreUri: string): OriginalsBackend {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(metadataStoreUri)?.[1]?.toLowerCase();
  return BACKENDS.find((b) => scheme !== undefined && b.schemes.includes(scheme)) ?? BACKENDS[0]!;
}
