import type { MetadataBackend } from "./backend.js";
import { postgresBackend } from "../postgres/backend.js";
import { sqliteBackend } from "../sqlite/backend.js";

/** Adding a backend is its adapter and one line here; the first one serves local paths and is the default. */
const BACKENDS: readonly MetadataBackend[] = [sqliteBackend, postgresBackend];

const schemeOf = (uri: string) => /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1]?.toLowerCase();

/** Every URI scheme some backend serves (what `metadata_store_uri` may name besides a local path). */
export function metadataStoreSchemes(): string[] {
  return BACKENDS.flatMap((b) => b.schemes);
}

/** The default `metadata_store_uri`: the first backend's, in the data directory. */
export function defaultMetadataStoreUri(dataDir: string): string {
  return BACKENDS[0]!.defaultUri(dataDir);
}

/** The backend for a `metadata_store_uri` (already checked against `metadataStoreSchemes` by the configuration). */
export function metadataBackendFor(uri: string): MetadataBackend {
  const scheme = schemeOf(uri);
  const backend = scheme === undefined ? BACKENDS[0] : BACKENDS.find((b) => b.schemes.includes(scheme));
  if (!backend) throw new Error(`no metadata store serves ${scheme}:// URIs`);
  return backend;
}
