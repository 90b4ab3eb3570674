import type { Metric } from "./metric.js";

export const precision: Metric = {
  key: "avg_precision",
  label: "precision",
  scale: "0-1",
  direction: "higher",
  field: "avgPrecision",
  perQuestion: "precision",
  needsReferences: true,
  definition: "share of the retrieved chunks' characters that are reference text (Chroma)",
};
