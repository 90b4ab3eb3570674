import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { VectorStore } from "../../src/stores/vectors/vector-store.js";
import { vectorBackends } from "../../src/stores/vectors/registry.js";
import type { VectorBackend } from "../../src/stores/vectors/backend.js";

/** A vector store a contract test runs against, in a place of its own: open it (again, as another process would), and remove it. */
export interface OpenedVectorStore {
  open(): Promise<VectorStore>;
  cleanup(): void;
}

/** Where each backend keeps a store a test may create and remove: a local folder (a backend serving only remote URIs adds its stand-in here). */
function placeFor(backend: VectorBackend): { uri: string; remove(): void } {
  if (backend.name !== "lancedb") throw new Error(`no test place for the ${backend.name} vector backend: add one in test/helpers/vector-stores.ts`);
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-vectors-"));
  return { uri: join(dir, "lancedb"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every vector backend of the registry, each in a fresh place: test/stores/vector-store-contract.test.ts runs the same tests over each. */
export const VECTOR_STORES: Array<{ name: string; create(): Promise<OpenedVectorStore> }> = vectorBackends().map((backend) => ({
  name: backend.name,
  async create() {
    const place = placeFor(backend);
    await backend.claim(place.uri, "dd_contract");
    const opened: VectorStore[] = [];
    return {
      async open() {
        // Upkeep runs only when asked (maintain()), so what a test reads is what it wrote.
        const store = await backend.openVectors(place.uri, "evaluation", { delayMs: 60_000, versionRetentionMs: 0, vectorIndexMinRows: 1_000_000 });
        opened.push(store);
        return store;
      },
      cleanup() {
        place.remove();
      },
    };
  },
}));
