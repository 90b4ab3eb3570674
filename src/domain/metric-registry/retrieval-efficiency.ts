import type { Metric } from "./metric.js";

export const retrievalEfficiency: Metric = {
  key: "avg_retrieval_efficiency",
  label: "efficiency",
  scale: "0-1",
  direction: "higher",
  field: "avgRetrievalEfficiency",
  perQuestion: "retrievalEfficiency",
  needsReferences: true,
  scorecardDigits: 3,
  composite: { weight: "retrieval_efficiency", defaultWeight: 0.1, factor: 10, order: 6 },
  definition:
    "IoU on a log scale from retrieving the whole document (0) to retrieving exactly the reference text (1): " +
    "each halving of the extra text retrieved counts the same",
};
