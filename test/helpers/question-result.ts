import type { QuestionResult } from "../../src/domain/experiment.js";
import { emptyResult } from "../../src/domain/question-result.js";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";

/** A question's result with the given metrics (the rest null) and fields, for tests of aggregation and verdicts. */
export function questionResult(metrics: Partial<QuestionResult["metrics"]>, extra: Partial<QuestionResult> = {}): QuestionResult {
  const empty = emptyResult({ question: "q", expectedAnswer: null, references: [] }, BUILT_IN_METRICS);
  return {
    ...empty,
    answer: "a",
    answered: true,
    metrics: { ...empty.metrics, ...metrics },
    latency: { ...empty.latency, totalSeconds: 1 },
    ...extra,
  };
}
