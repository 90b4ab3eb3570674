import type { Metric } from "./metric.js";
import { abstentionScore } from "../negative-controls.js";

export const answerSimilarity: Metric = {
  key: "avg_answer_similarity",
  label: "answer sim",
  scale: "0-10",
  direction: "higher",
  field: "avgAnswerSimilarity",
  perQuestion: {
    field: "answerSimilarity",
    stage: "answer",
    // A negative control's right answer is to abstain: it is scored on that, not by the judge.
    compute: (q) => (q.answerable ? q.verdict.answerSimilarity : abstentionScore(q.answered)),
  },
  needsAnswers: true,
  missingReason: (ok) =>
    ok.every((r) => r.expectedAnswer === null && r.references.length === 0) ? "the questions have neither an expected answer nor reference excerpts" : null,
  reportColumn: "answer simi\u00ADlarity",
  scorecardDigits: 2,
  composite: { weight: "answer_similarity", defaultWeight: 0.25, factor: 1, order: 1 },
  definition: "how much of the expected answer's facts (numbers, names, key terms) and meaning the answer contains, whatever its length",
};
