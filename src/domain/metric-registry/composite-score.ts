import type { Metric } from "./metric.js";

export const compositeScore: Metric = {
  key: "composite_score",
  label: "composite",
  scale: "0-10",
  direction: "higher",
  field: "compositeScore",
  scorecardDigits: 2,
  definition: "weighted mean of the measured quality metrics (each on 0-10); metrics that could not be measured drop out and the rest are re-weighted",
};
