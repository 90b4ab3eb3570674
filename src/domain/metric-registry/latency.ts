import type { Metric } from "./metric.js";

export const latency: Metric = {
  key: "avg_latency_seconds",
  label: "s/question",
  scale: "seconds",
  direction: "lower",
  field: "avgLatencySeconds",
  scorecardDigits: 3,
  definition: "mean time this strategy takes to answer one question: search and generate (embedding the question is shared by every strategy, timed apart)",
};
