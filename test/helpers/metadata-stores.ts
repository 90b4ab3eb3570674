import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MetadataStore } from "../../src/domain/ports/metadata-store.js";
import { metadataBackendFor } from "../../src/stores/metadata/registry.js";

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
      // Through the registry, as the composition root opens it.
      const uri = `sqlite://${join(dir, "chunkeval.sqlite")}`;
      const store = await metadataBackendFor(uri).open(uri, { cacheDir: join(dir, "cache") });
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
