// What a vector backend is: the registry (./registry.ts) lists them, each adapter implements one.
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
