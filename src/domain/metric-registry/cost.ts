import type { Metric } from "./metric.js";

export const cost: Metric = {
  key: "cost_usd",
  label: "cost",
  scale: "USD",
  direction: "lower",
  field: "costUsd",
  definition: "what the strategy's indexing, answers and judging cost with the configured providers",
};
