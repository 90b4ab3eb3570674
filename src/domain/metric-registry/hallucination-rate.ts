import type { Metric } from "./metric.js";

export const hallucinationRate: Metric = {
  key: "hallucination_rate",
  label: "halluc",
  scale: "0-1",
  direction: "lower",
  field: "hallucinationRate",
  scorecardDigits: 3,
  definition: "share of answered questions whose faithfulness is below the hallucination threshold",
  fromQuestions: (ok, threshold) => {
    const judged = ok.filter((r) => r.answered && r.metrics.faithfulness !== null);
    return judged.length === 0 ? null : judged.filter((r) => r.metrics.faithfulness! < threshold).length / judged.length;
  },
};
