import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MetadataStore } from "../../src/domain/ports/metadata-store.js";
import { openSqliteMetadataStore } from "../../src/stores/sqlite/metadata-store.js";

/** A metadata store a contract test runs against, in a place of its own, and how to remove it. */
export interface OpenedStore {
  store: MetadataStore;
  cleanup(): Promise<void>;
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
      const store = openSqliteMetadataStore({ database: join(dir, "chunkeval.sqlite"), cache: join(dir, "cache.sqlite") });
      return {
        store,
        async cleanup() {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
];
