import type { QuestionMetrics } from "./experiment.js";
import type { MetricRegistry } from "./metric-registry/registry.js";
import type { AnsweredQuestion, RetrievedQuestion } from "./question-evaluation.js";

/** A question's scores by field: registered metrics write fields QuestionMetrics does not name. */
const byField = (metrics: QuestionMetrics) => metrics as unknown as Record<string, number | null>;

/**
 * Computes every registered per-question metric of the retrieval stage into `metrics` (a metric
 * that needs references only when the question has some).
 */
export async function scoreRetrieval(registry: MetricRegistry, metrics: QuestionMetrics, q: RetrievedQuestion): Promise<void> {
  for (const m of registry.perQuestion) {
    if (m.perQuestion.stage !== "retrieval" || (m.needsReferences && q.references.length === 0)) continue;
    byField(metrics)[m.perQuestion.field] = await m.perQuestion.compute(q);
  }
}

/** Computes every registered per-question metric of the answer stage into `metrics`, once the answer is judged. */
export async function scoreAnswer(registry: MetricRegistry, metrics: QuestionMetrics, q: AnsweredQuestion): Promise<void> {
  for (const m of registry.perQuestion) {
    if (m.perQuestion.stage === "answer") byField(metrics)[m.perQuestion.field] = await m.perQuestion.compute(q);
  }
}
