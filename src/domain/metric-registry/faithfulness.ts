import type { Metric } from "./metric.js";

export const faithfulness: Metric = {
  key: "avg_faithfulness",
  label: "faithful",
  scale: "0-10",
  direction: "higher",
  field: "avgFaithfulness",
  perQuestion: "faithfulness",
  scorecardDigits: 2,
  composite: { weight: "faithfulness", defaultWeight: 0.2, factor: 1, order: 2 },
  definition: "share of the answer's statements supported by the retrieved context, with their numbers, names and negations",
};
