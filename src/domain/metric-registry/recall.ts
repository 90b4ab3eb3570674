import type { Metric } from "./metric.js";

export const recall: Metric = {
  key: "avg_recall",
  label: "recall",
  scale: "0-1",
  direction: "higher",
  field: "avgRecall",
  perQuestion: "recall",
  needsReferences: true,
  scorecardDigits: 3,
  composite: { weight: "recall", defaultWeight: 0.2, factor: 10, order: 4 },
  definition: "share of the reference excerpts' characters found in the retrieved chunks (Chroma)",
};
