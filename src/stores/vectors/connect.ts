import type { Connection } from "@lancedb/lancedb";

/**
 * Opens the LanceDB database at a local path or an object-store URI (`s3://`, `gs://`, `az://`).
 * Endpoint, region and credentials are not passed here: LanceDB's object store reads them from
 * the environment (`AWS_*`, `GOOGLE_*`, `AZURE_*`), so secrets never enter the configuration.
 */
export async function connectVectorStore(uri: string): Promise<Connection> {
  const lancedb = await import("@lancedb/lancedb");
  return lancedb.connect(uri);
}
