/**
 * Which metadata store the service and HTTP tests run on: SQLite in the data directory (the
 * default), or with CHUNKEVAL_TEST_METADATA_STORE=postgres a fresh database on the test run's
 * PostgreSQL server, copied from its migrated template (./postgres.ts; without the runner, a server
 * this process starts on first use and stops at exit).
 */
import { migratedTestDatabase } from "./postgres.js";

export const TEST_METADATA_STORE = "CHUNKEVAL_TEST_METADATA_STORE";

/** A `metadata_store_uri` for a new workspace, or undefined for the default SQLite file. */
export async function testMetadataStoreUri(): Promise<string | undefined> {
  const kind = process.env[TEST_METADATA_STORE];
  if (kind === undefined || kind === "" || kind === "sqlite") return undefined;
  if (kind !== "postgres") throw new Error(`${TEST_METADATA_STORE} is sqlite or postgres, not ${kind}`);
  return migratedTestDatabase();
}
