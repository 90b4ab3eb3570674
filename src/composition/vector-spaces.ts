// The vector store's two namespaces for one composition: the evaluation vectors (chunks of
// benchmarked documents) and the /v1 points. Each opens on first use, and only once the store is
// known to be this data directory's.
import type { ChunkevalConfig } from "../config/schema.js";
import { DEFAULTS } from "../config/defaults.js";
import type { ChunksRepo } from "../domain/ports/chunks.js";
import type { Owner } from "../domain/ports/owner.js";
import { sweepAbandoned } from "../services/corpus/generations.js";
import { once } from "../services/once.js";
import type { PointsStore } from "../stores/vectors/points-store.js";
import { vectorBackendFor } from "../stores/vectors/registry.js";
import type { VectorStore } from "../stores/vectors/vector-store.js";

export function composeVectorSpaces(config: Readonly<ChunkevalConfig>, metadata: { chunks: ChunksRepo; dataDirectoryId: () => Promise<string> }, owner: Owner) {
  const backend = vectorBackendFor(config.vectorStoreUri);
  const maintenance = { delayMs: DEFAULTS.vectorMaintenanceDelayMs, versionRetentionMs: config.vectorVersionRetentionSeconds * 1000 };
  const opened: Array<VectorStore | PointsStore> = [];
  const claimed = once(async () => backend.claim(config.vectorStoreUri, await metadata.dataDirectoryId()));

  /** The evaluation vectors as they are on disk, before any cleanup (what `doctor` inspects). */
  const rawVectors = once(async () => {
    await claimed();
    const store = await backend.openVectors(config.vectorStoreUri, "evaluation", {
      ...maintenance,
      vectorIndexMinRows: DEFAULTS.evaluationVectorIndexMinRows,
    });
    opened.push(store);
    return store;
  });
  /** The evaluation vectors once the recovery rule of stores/README.md has run: vectors of generations provably abandoned go. */
  const vectors = once(async () => {
    const store = await rawVectors();
    await sweepAbandoned(metadata.chunks, store, owner);
    return store;
  });
  /** The /v1 points. */
  const points = once(async () => {
    await claimed();
    const store = await backend.openPoints(config.vectorStoreUri, "v1", { ...maintenance, vectorIndexMinRows: DEFAULTS.vectorIndexMinRows });
    opened.push(store);
    return store;
  });

  return { rawVectors, vectors, points, close: async () => void (await Promise.all(opened.map((s) => s.close().catch(() => undefined)))) };
}
