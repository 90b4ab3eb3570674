import type { QuestionMetrics, QuestionResult } from "./experiment.js";
import { ZERO_USAGE } from "./metrics.js";
import type { MetricRegistry } from "./metric-registry/registry.js";

/** A question's result before anything was measured: no chunks, no answer, every metric null, no time. */
export function emptyResult(q: Pick<QuestionResult, "question" | "expectedAnswer" | "references" | "answerable">, metrics: MetricRegistry): QuestionResult {
  return {
    question: q.question,
    expectedAnswer: q.expectedAnswer,
    references: q.references,
    retrieved: [],
    answer: null,
    answered: false,
    metrics: nullMetrics(metrics),
    latency: { embedSeconds: 0, searchSeconds: 0, answerSeconds: 0, totalSeconds: 0 },
    answerTokens: ZERO_USAGE,
    judgeTokens: ZERO_USAGE,
    stageSeconds: { retrieval: 0, generation: 0, judging: 0 },
    error: null,
    ...(q.answerable === false ? { answerable: false } : {}),
  };
}

/** Every registered per-question metric, null. */
export function nullMetrics(metrics: MetricRegistry): QuestionMetrics {
  return Object.fromEntries(metrics.perQuestion.map((m) => [m.perQuestion.field, null])) as unknown as QuestionMetrics;
}
