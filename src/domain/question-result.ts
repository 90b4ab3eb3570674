import type { QuestionResult } from "./experiment.js";
import { ZERO_USAGE } from "./metrics.js";

/** A question's result before anything was measured: no chunks, no answer, every metric null, no time. */
export function emptyResult(q: Pick<QuestionResult, "question" | "expectedAnswer" | "references" | "answerable">): QuestionResult {
  return {
    question: q.question,
    expectedAnswer: q.expectedAnswer,
    references: q.references,
    retrieved: [],
    answer: null,
    answered: false,
    metrics: {
      recall: null,
      precision: null,
      iou: null,
      retrievalEfficiency: null,
      precisionOmega: null,
      hit: null,
      reciprocalRank: null,
      contextRelevance: null,
      answerSimilarity: null,
      faithfulness: null,
    },
    latency: { embedSeconds: 0, searchSeconds: 0, answerSeconds: 0, totalSeconds: 0 },
    answerTokens: ZERO_USAGE,
    judgeTokens: ZERO_USAGE,
    stageSeconds: { retrieval: 0, generation: 0, judging: 0 },
    error: null,
    ...(q.answerable === false ? { answerable: false } : {}),
  };
}
