import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MetadataStore } from "../../src/domain/ports/metadata-store.js";
import { metadataBackendFor } from "../../src/stores/metadata/registry.js";
import { testPostgres } from "./postgres.js";

/** A metadata store a contract test runs against, in a place of its own, and how to remove it. */
export interface OpenedStore {
  store: MetadataStore;
  /** Opens the same store again: another process or replica sharing it (closed by cleanup). */
  another(): Promise<MetadataStore>;
  cleanup(): Promise<void>;
}

/** Opens the store at `uri` through the registry, as the composition root does, as many times as asked; cleanup closes them all. */
async function openedAt(uri: string, cacheDir: string, remove: () => void): Promise<OpenedStore> {
  const open = () => metadataBackendFor(uri).open(uri, { cacheDir });
  const stores = [await open()];
  return {
    store: stores[0]!,
    async another() {
      const store = await open();
      stores.push(store);
      return store;
    },
    async cleanup() {
      await Promise.all(stores.map((s) => s.close()));
      remove();
    },
  };
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
      return openedAt(`sqlite://${join(dir, "chunkeval.sqlite")}`, join(dir, "cache"), () => rmSync(dir, { recursive: true, force: true }));
    },
  },
  {
    name: "postgres",
    async open() {
      const uri = await (await testPostgres()).createDatabase();
      return openedAt(uri, join(tmpdir(), "chunkeval-unused-cache"), () => undefined);
    },
  },
];
