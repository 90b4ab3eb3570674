import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MetadataStore } from "../../src/domain/ports/metadata-store.js";
import { openSqliteMetadataStore } from "../../src/stores/sqlite/metadata-store.js";
import { openPostgresStore } from "../../src/stores/postgres/store.js";
import { startPostgres, type PostgresServer } from "./postgres.js";

/** A metadata store a contract test runs against, in a place of its own, and how to remove it. */
export interface OpenedStore {
  store: MetadataStore;
  /** Opens the same store again: another process or replica sharing it (closed by cleanup). */
  another(): Promise<MetadataStore>;
  cleanup(): Promise<void>;
}

/** Opens stores over one location, and closes them all. */
function opened(open: () => Promise<MetadataStore>, first: MetadataStore, remove: () => void): OpenedStore {
  const others: MetadataStore[] = [];
  return {
    store: first,
    async another() {
      const store = await open();
      others.push(store);
      return store;
    },
    async cleanup() {
      await Promise.all([first, ...others].map((s) => s.close()));
      remove();
    },
  };
}

/**
 * One throwaway PostgreSQL server per test process, started on first use; its exit hook stops it
 * and deletes its folder when the process ends (test/helpers/postgres.ts). Without PostgreSQL's
 * binaries the tests that use it fail with the command that installs them.
 */
let postgres: Promise<PostgresServer> | undefined;
export function sharedPostgres(): Promise<PostgresServer> {
  postgres ??= startPostgres();
  return postgres;
}

/**
 * Every metadata store adapter, each opened fresh: contract tests run the same test against each
 * (test/stores/metadata-contract.test.ts). A new adapter adds its factory here.
 */
export const METADATA_STORES: Array<{ name: string; open(): Promise<OpenedStore> }> = [
  {
    name: "sqlite",
    async open() {
      const dir = mkdtempSync(join(tmpdir(), "chunkeval-store-"));
      const open = async () => openSqliteMetadataStore({ database: join(dir, "chunkeval.sqlite"), cache: join(dir, "cache.sqlite") });
      return opened(open, await open(), () => rmSync(dir, { recursive: true, force: true }));
    },
  },
  {
    name: "postgres",
    async open() {
      const uri = await (await sharedPostgres()).createDatabase();
      const open = () => openPostgresStore(uri);
      return opened(open, await open(), () => undefined);
    },
  },
];
