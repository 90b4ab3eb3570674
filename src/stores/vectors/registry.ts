import { lancedbBackend } from "./lancedb/backend.js";
import type { VectorBackend } from "./backend.js";

/** Adding a backend is its adapter and one line here; the first one serves local paths. */
const BACKENDS: readonly VectorBackend[] = [lancedbBackend];

/** Every vector backend, first the one serving local paths (the contract tests run over each: test/helpers/vector-stores.ts). */
export function vectorBackends(): readonly VectorBackend[] {
  return BACKENDS;
}

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
