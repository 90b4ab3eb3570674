import type { Metric } from "./metric.js";

export const hitRate: Metric = {
  key: "hit_rate",
  label: "hit rate",
  scale: "0-1",
  direction: "higher",
  field: "hitRate",
  perQuestion: "hit",
  needsReferences: true,
  scorecardDigits: 3,
  definition: "share of questions where some retrieved chunk covers at least half of a reference excerpt",
};
