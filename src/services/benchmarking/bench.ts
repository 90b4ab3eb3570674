// A benchmark's stages in order (bench-plan → bench-indexing → bench-questions → bench-scoring →
// bench-experiment), each over what the one before settled, and the experiment stored at the end.
import { throwIfCancelled } from "../../errors.js";
import type { ExperimentRecord } from "../../domain/experiment.js";
import type { ServiceContext } from "../context.js";
import { checkPlannedGates } from "./ci-gates.js";
import { assembleExperiment } from "./bench-experiment.js";
import { indexVariants } from "./bench-indexing.js";
import type { BenchInput } from "./bench-input.js";
import { announceEstimate, planRun } from "./bench-plan.js";
import { answerModels, runQuestions } from "./bench-questions.js";
import { estimateFullRun, scoreStrategies } from "./bench-scoring.js";

/**
 * Runs every question against every strategy and stores the experiment: retrieval metrics
 * when references exist, then (unless a dry run) an answer and the judge's scores. A question
 * that fails is recorded with its error and the run goes on, up to `maxErrors`.
 */
export async function runBenchmark(shared: ServiceContext, input: BenchInput): Promise<ExperimentRecord> {
  const plan = await planRun(shared, input);
  await announceEstimate(plan, input);
  const indexed = await indexVariants(plan, input);
  const models = await answerModels(plan, input);
  const answered = await runQuestions(plan, input, models);
  const scored = await scoreStrategies(plan, input, models, answered, indexed.indexing);
  const fullRunEstimate = plan.dryRun ? await estimateFullRun(plan, answered.dryRunPromptTokens) : null;
  const record = await assembleExperiment(plan, input, models, indexed, answered, scored, fullRunEstimate);
  const gates = plan.gates ? checkPlannedGates(plan.ctx.metrics, plan.gates, record, answered.results) : [];
  if (gates.length > 0) record.details.gates = gates;
  // Ctrl-C during the scoring: nothing is stored (the run was not finished, as far as its user is concerned).
  throwIfCancelled(input.signal);
  await plan.ctx.experiments.insert(record, answered.results);
  const total = plan.variants.length * plan.questions.length;
  input.onProgress?.({ stage: "bench", message: "done", done: total, total });
  return record;
}
