import type { JobHandlers, SharedCallCount } from "../domain/ports/job-queue.js";
import { experimentBody } from "./experiment-body.js";
import { toWire } from "./serialize.js";
import { withRequestCallBudget } from "./request-call-budget.js";
import type { BenchInput, Chunkeval, GenerateQuestionsInput, ProcessUnitInput, QueuedIngestionInput } from "../api/index.js";
import { V1_INGESTION_JOB } from "../api/jobs.js";

/** What a `process` job stores to be run again anywhere. */
export interface ProcessJobInput {
  documentId: string;
  strategies: string | string[];
}

/**
 * How each background job type is run from the input stored with it, by the process that
 * enqueued it (SQLite) or by whichever `serve` or `worker` claims it (PostgreSQL). The result is
 * what the synchronous request answers.
 */
export function jobHandlers(chunkeval: Chunkeval): JobHandlers {
  // Each job within http_max_llm_calls chat-model calls. On the shared queue they are counted on
  // the top-level job's row (`calls`): a benchmark's processing units, run as child jobs by any
  // worker, and every attempt of a job taken over share its one budget.
  const budgeted = <T>(calls: SharedCallCount | undefined, work: () => Promise<T>) => withRequestCallBudget(chunkeval.config, work, calls);
  return {
    // On the shared queue, a benchmark's (document, variant) processing units are child jobs any worker runs.
    benchmark: async (input, { signal, onProgress, children, calls }) =>
      experimentBody(
        await budgeted(calls, () => chunkeval.bench({ ...(input as BenchInput), signal, onProgress, units: children && chunkeval.queuedUnits(children) })),
        chunkeval.metrics,
      ),
    process_unit: async (input, { signal, onProgress, calls }) =>
      budgeted(calls, () => chunkeval.runProcessingUnit(input as ProcessUnitInput, { signal, onProgress })),
    process: async (input, { signal, onProgress, calls }) => {
      const { documentId, strategies } = input as ProcessJobInput;
      return toWire(await budgeted(calls, () => chunkeval.process(documentId, strategies, { signal, onProgress })));
    },
    // Within its own max_calls too (http_max_generation_calls): on the shared queue, its attempts share this budget.
    question_generation: async (input, { signal, onProgress, calls }) =>
      toWire(await budgeted(calls, () => chunkeval.generateQuestions({ ...(input as GenerateQuestionsInput), signal, onProgress }))),
    // Queued only on a shared store (PostgreSQL): a /v1 upload accepted by any replica.
    [V1_INGESTION_JOB]: async (input, { signal, claim, calls }) =>
      toWire(await budgeted(calls, () => chunkeval.runQueuedIngestion(input as QueuedIngestionInput, signal, claim))),
  };
}
