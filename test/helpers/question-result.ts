import type { QuestionResult } from "../../src/domain/experiment.js";

/** A question's result with the given metrics (the rest null) and fields, for tests of aggregation and verdicts. */
export function questionResult(metrics: Partial<QuestionResult["metrics"]>, extra: Partial<QuestionResult> = {}): QuestionResult {
  return {
    question: "q",
    expectedAnswer: null,
    references: [],
    retrieved: [],
    answer: "a",
    answered: true,
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
      ...metrics,
    },
    latency: { embedSeconds: 0, searchSeconds: 0, answerSeconds: 0, totalSeconds: 1 },
    answerTokens: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    judgeTokens: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    stageSeconds: { retrieval: 0, generation: 0, judging: 0 },
    error: null,
    ...extra,
  };
}
