/**
 * The metadata store adapters the contract tests run on: each gives fresh, empty stores, and
 * opens a store as many times as a test needs (two opens of one store are two processes or
 * replicas sharing it). PostgreSQL runs on a throwaway server (./postgres.ts): a machine without
 * its binaries fails these tests with the command that installs them.
 */
import type { MetadataStore } from "../../src/domain/ports/metadata-store.js";
import { openPostgresStore } from "../../src/stores/postgres/store.js";
import { startPostgres, type PostgresServer } from "./postgres.js";

export interface StoreLocation {
  /** Opens (migrating if needed) the store at this location. */
  open(): Promise<MetadataStore>;
}

export interface StoreAdapter {
  name: string;
  /** A new, empty store. */
  fresh(): Promise<StoreLocation>;
  /** Stops what the adapter started (a server); every store it opened must be closed first. */
  stop(): Promise<void>;
}

export async function postgresAdapter(): Promise<StoreAdapter> {
  let server: PostgresServer | undefined;
  return {
    name: "postgres",
    async fresh() {
      server ??= await startPostgres();
      const uri = await server.createDatabase();
      return { open: () => openPostgresStore(uri) };
    },
    async stop() {
      await server?.stop();
    },
  };
}

/** Every adapter, each started lazily: a test file that asks for none starts nothing. */
export async function storeAdapters(): Promise<StoreAdapter[]> {
  return [await postgresAdapter()];
}
