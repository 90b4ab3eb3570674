import type { Metric } from "./metric.js";

export const mrr: Metric = {
  key: "mrr",
  label: "MRR",
  scale: "0-1",
  direction: "higher",
  field: "mrr",
  perQuestion: "reciprocalRank",
  needsReferences: true,
  scorecardDigits: 3,
  composite: { weight: "mrr", defaultWeight: 0.1, factor: 10, order: 5 },
  definition: "mean of 1/rank of the first retrieved chunk covering half of a reference excerpt (0 when none)",
};
