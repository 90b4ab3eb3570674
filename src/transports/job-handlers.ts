import type { Chunkeval } from "../chunkeval.js";
import type { JobHandlers } from "../domain/ports/job-queue.js";
import type { BenchInput } from "../services/bench.js";
import type { ProcessUnitInput } from "../services/processing-units.js";
import type { GenerateQuestionsInput } from "../services/question-generation.js";
import type { QueuedIngestionInput } from "../services/ingestion.js";
import { V1_INGESTION_JOB } from "../services/jobs.js";
import { experimentBody } from "./experiment-body.js";
import { toWire } from "./serialize.js";
import { withRequestCallBudget } from "./request-call-budget.js";

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
  const budgeted = <T>(work: () => Promise<T>) => withRequestCallBudget(chunkeval.config, work);
  return {
    // On the shared queue, a benchmark's (document, variant) processing units are child jobs any worker runs.
    // Each within http_max_llm_calls chat-model calls (a benchmark's processing units run as child
    // jobs on a shared queue each have their own).
    benchmark: async (input, { signal, onProgress, children }) =>
      experimentBody(
        await budgeted(() => chunkeval.bench({ ...(input as BenchInput), signal, onProgress, units: children && chunkeval.queuedUnits(children) })),
      ),
    process_unit: async (input, { signal, onProgress }) => budgeted(() => chunkeval.runProcessingUnit(input as ProcessUnitInput, { signal, onProgress })),
    process: async (input, { signal, onProgress }) => {
      const { documentId, strategies } = input as ProcessJobInput;
      return toWire(await budgeted(() => chunkeval.process(documentId, strategies, { signal, onProgress })));
    },
    question_generation: async (input, { signal, onProgress }) =>
      toWire(await chunkeval.generateQuestions({ ...(input as GenerateQuestionsInput), signal, onProgress })),
    // Queued only on a shared store (PostgreSQL): a /v1 upload accepted by any replica.
    [V1_INGESTION_JOB]: async (input, { signal, claim }) => toWire(await chunkeval.runQueuedIngestion(input as QueuedIngestionInput, signal, claim)),
  };
}
