import type { AtKMetric } from "../../src/domain/metric-registry/metric.js";

/**
 * An at-k metric that exists only in tests: everything chunkeval knows of a metric at the cut-offs k, in one
 * file, to show that adding it to a composition (`{ metrics: { atKMetrics: [precisionAtK] } }`) is all it takes to be computed per
 * question and cut, averaged with intervals, written to the Experiment JSON and shown in the reports.
 */
export const precisionAtK: AtKMetric = {
  label: "Precision@k",
  scale: "0-1",
  direction: "higher",
  field: "precision",
  perQuestionField: "precision",
  atCuts: (q, cuts) => cuts.map((k) => q.ranked.slice(0, k).filter((c) => q.references.some((r) => c.start < r.end && r.start < c.end)).length / k),
  definition: "the share of the top k ranks holding a chunk that overlaps a reference excerpt (missing ranks count as misses)",
};
