import type { Metric } from "./metric.js";

export const hallucinationRate: Metric = {
  key: "hallucination_rate",
  label: "halluc",
  scale: "0-1",
  direction: "lower",
  field: "hallucinationRate",
  scorecardDigits: 3,
  format: "percent",
  needsAnswers: true,
  needsGeneratedAnswers: true,
  // Faithfulness's reason is found first (aggregate.ts): the rate is null for the same reason.
  missingReason: (_ok, missing) => missing.avg_faithfulness ?? "no answered question could be judged",
  reportColumn: "hallu\u00ADcination",
  definition: "share of answered questions whose faithfulness is below the hallucination threshold",
  // 1 for a judged answer below the threshold, 0 for one at or above it: their mean is the share.
  questionValue: (r, threshold) => (r.answered && r.metrics.faithfulness !== null ? (r.metrics.faithfulness < threshold ? 1 : 0) : null),
};
