import { lancedbBackend } from "./lancedb/backend.js";
import type { PointsStore, PointsStoreOptions } from "./points-store.js";
import type { VectorStore, VectorStoreOptions } from "./vector-store.js";

/**
 * The surfaces that keep vectors. Each opens its own namespace of the store (a folder or key
 * prefix under `vector_store_uri`), so no cleanup or listing of one can reach the other's data,
 * whatever its tables are named.
 */
export type VectorNamespace = "evaluation" | "v1";

/** A vector backend: the evaluation vectors and the /v1 points, behind their ports. */
export interface VectorBackend {
  name: string;
  /** URI schemes it serves besides local paths (`s3` for `s3://bucket/path`). */
  schemes: string[];
  /** Records the store as this data directory's, or refuses it if another's (before either namespace opens). */
  claim(uri: string, dataDirectoryId: string): Promise<void>;
  openVectors(uri: string, namespace: VectorNamespace, options: VectorStoreOptions): Promise<VectorStore>;
  openPoints(uri: string, namespace: VectorNamespace, options: PointsStoreOptions): Promise<PointsStore>;
}

/** Adding a backend is its adapter and one line here; the first one serves local paths. */
const BACKENDS: readonly VectorBackend[] = [lancedbBackend];

/** Every URI scheme some backend serves (what `vector_store_uri` may name besides a local path). */
export function vectorStoreSchemes(): string[] {
  return BACKENDS.flatMap((b) => b.schemes);
}

/** The backend for a `vector_store_uri` (already checked against `vectorStoreSchemes` by the configuration). */
export function vectorBackendFor(uri: string): VectorBackend {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1]?.toLowerCase();
  const backend = scheme === undefined ? BACKENDS[0] : BACKENDS.find((b) => b.schemes.includes(scheme));
  if (!backend) throw new Error(`no vector store serves ${scheme}:// URIs`);
  return backend;
}
