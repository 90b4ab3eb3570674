import type { Connection } from "@lancedb/lancedb";

/**
 * How stale a table handle may get before it looks for versions other processes committed
 * (LanceDB's default is never, so a server would not see vectors a CLI `process` wrote). On a
 * local disk the check is a directory listing, so every read makes it; on an object store it is
 * a LIST request, so reads reuse a check for a few seconds.
 */
const READ_CONSISTENCY_SECONDS = { local: 0, objectStore: 5 };

/** Whether the URI names an object store rather than a local path. */
export function isObjectStoreUri(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(uri);
}

/**
 * Opens the LanceDB database at a local path or an object-store URI (`s3://`, `gs://`, `az://`).
 * Endpoint, region and credentials are not passed here: LanceDB's object store reads them from
 * the environment (`AWS_*`, `GOOGLE_*`, `AZURE_*`), so secrets never enter the configuration.
 */
export async function connectVectorStore(uri: string): Promise<Connection> {
  const lancedb = await loadLanceDb();
  return lancedb.connect(uri, { readConsistencyInterval: isObjectStoreUri(uri) ? READ_CONSISTENCY_SECONDS.objectStore : READ_CONSISTENCY_SECONDS.local });
}

/**
 * LanceDB, loaded with its Rust logger kept out of the user's terminal and server log: it writes
 * to stderr directly, in its own format, from the `LANCEDB_LOG` filter (default: warnings), read
 * once when the native module loads, so every import of LanceDB goes through here. Its warnings
 * are notes to its developers ("No existing dataset at …, it will be created", a statistic that
 * will change); what matters reaches chunkeval as an error and is reported in our words. Errors
 * it only logs still show. A user's own settings stand (`LANCEDB_LOG=warn` shows the warnings).
 */
export async function loadLanceDb(): Promise<typeof import("@lancedb/lancedb")> {
  process.env.LANCEDB_LOG ??= "error";
  // Lance warns on every ANN index build that a future release will leave centroids out of index
  // statistics unless this is set; chunkeval never reads them, so it opts in to the new behaviour.
  process.env.LANCE_INCLUDE_VECTOR_CENTROIDS ??= "false";
  return import("@lancedb/lancedb");
}
