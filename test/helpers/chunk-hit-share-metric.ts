import type { Metric } from "../../src/domain/metric-registry/metric.js";

/**
 * A metric that exists only in tests: everything chunkeval knows of a metric, in one file, to show that
 * adding it to a composition (`createChunkeval(config, { metrics: { metrics: [chunkHitShare] } })`) is all
 * it takes to be computed, averaged, gated and reported.
 */
export const chunkHitShare: Metric = {
  key: "chunk_hit_share",
  label: "chunk hits",
  scale: "0-1",
  direction: "higher",
  field: "avgChunkHitShare",
  perQuestion: {
    field: "chunkHitShare",
    stage: "retrieval",
    compute: (q) =>
      q.retrieved.length === 0 ? null : q.retrieved.filter((c) => q.references.some((r) => c.start < r.end && r.start < c.end)).length / q.retrieved.length,
  },
  needsReferences: true,
  format: "percent",
  reportColumn: "chunk hit share",
  composite: { weight: "chunk_hit_share", defaultWeight: 0.5, factor: 10, order: 7 },
  definition: "share of the retrieved chunks that overlap a reference excerpt",
};
