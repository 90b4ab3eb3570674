import type { Metric } from "./metric.js";

export const answerSimilarity: Metric = {
  key: "avg_answer_similarity",
  label: "answer sim",
  scale: "0-10",
  direction: "higher",
  field: "avgAnswerSimilarity",
  perQuestion: "answerSimilarity",
  scorecardDigits: 2,
  composite: { weight: "answer_similarity", defaultWeight: 0.25, factor: 1, order: 1 },
  definition: "how much of the expected answer's facts (numbers, names, key terms) and meaning the answer contains, whatever its length",
};
