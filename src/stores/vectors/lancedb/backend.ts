import { existsSync, mkdirSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { VectorBackend, VectorNamespace } from "../backend.js";
import { isObjectStoreUri } from "./connect.js";
import { claimStore } from "./ownership.js";
import { LancePointsStore } from "./points.js";
import { LanceVectorStore } from "./vectors.js";

/** A namespace is a folder (or key prefix) of its own under the configured URI. */
function namespaceUri(uri: string, namespace: VectorNamespace): string {
  if (isObjectStoreUri(uri)) return `${uri.replace(/\/+$/, "")}/${namespace}`;
  moveLegacyTables(uri);
  return join(uri, namespace);
}

/**
 * Data directories written before the namespaces kept every table in one folder, told apart by
 * name: `chunks.lance` was the /v1 collection, `chunks_<embedder>_<dim>.lance` the evaluation
 * tables. They move into their namespaces on first open (a rename each; another process doing
 * the same at once makes ours fail harmlessly). Object stores never held that layout.
 */
function moveLegacyTables(root: string): void {
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    const namespace: VectorNamespace | null = name === "chunks.lance" ? "v1" : /^chunks_.+\.lance$/.test(name) ? "evaluation" : null;
    if (!namespace) continue;
    mkdirSync(join(root, namespace), { recursive: true });
    try {
      renameSync(join(root, name), join(root, namespace, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

/** LanceDB on a local path or an object store (s3://, gs://, az://). */
export const lancedbBackend: VectorBackend = {
  name: "lancedb",
  schemes: ["s3", "gs", "az"],
  claim: (uri, dataDirectoryId) => claimStore(uri, dataDirectoryId),
  openVectors: (uri, namespace, options) => LanceVectorStore.open(namespaceUri(uri, namespace), options),
  openPoints: (uri, namespace, options) => LancePointsStore.open(namespaceUri(uri, namespace), options),
};
