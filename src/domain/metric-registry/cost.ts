import type { Metric } from "./metric.js";

export const cost: Metric = {
  key: "cost_usd",
  label: "cost",
  scale: "USD",
  direction: "lower",
  field: "costUsd",
  format: "usd",
  reportColumn: "cost",
  definition: "what the strategy's indexing, answers and judging cost with the configured providers",
};
