import {
  ASSUMED_RETRIEVAL_SECONDS,
  LLM_CALL_SECONDS,
  chatCallsPerRun,
  distinctIndexes,
  estimateRun,
  guessedEmbedSecondsPerToken,
  isIndexCurrent,
  measuredRunSeconds,
  runStack,
  type RunEstimate,
  type RunPlan,
} from "./cost-model.js";
import type { CachedEmbedder } from "../../embedders/cache.js";
import type { ServiceContext } from "../context.js";
import { embedderOf } from "../corpus/variants.js";

/** Characters per token of English text, about. */
const CHARACTERS_PER_TOKEN = 4;

/**
 * A quick guess at the run's time from what costs nothing to know (no chunk cut, no model timed):
 * the text of the indexes still to build at the embedder kind's usual rate, each question run at
 * the last benchmark's pace here (else the assumed retrieval time), and the chat-model calls of
 * answers and judging at the cost model's assumed time each. It decides whether the cost model's
 * estimate (which cuts chunks and times the embedder) is worth making.
 */
export async function quickGuessSeconds(ctx: ServiceContext, embedder: CachedEmbedder, plan: RunPlan): Promise<number> {
  const full = !plan.dryRun;
  let unbuiltSeconds = 0;
  for (const v of distinctIndexes(plan.variants))
    for (const d of plan.documents)
      if (!(await isIndexCurrent(ctx, d, v))) unbuiltSeconds += (d.text.length / CHARACTERS_PER_TOKEN) * guessedEmbedSecondsPerToken(embedderOf(ctx, v));
  const runs = plan.variants.length * plan.questions.length;
  const measured = await measuredRunSeconds(ctx, runStack(ctx, embedder.name, full));
  // A measured run holds its chat calls; unmeasured, they are priced as the cost model prices them.
  const chatCalls = measured === null ? chatCallsPerRun(ctx, full) : 0;
  const runSeconds = (measured ?? ASSUMED_RETRIEVAL_SECONDS) + chatCalls * LLM_CALL_SECONDS;
  return unbuiltSeconds + runs * runSeconds;
}

/**
 * The cost model's estimate of a bench about to start (`cost-model.ts`, as a sweep gets before it
 * runs), when the run is expected to take more than `seconds`; null for a shorter run. The estimate
 * cuts chunks and times the embedder, so it is made only when the quick guess (quickGuessSeconds)
 * reaches half the threshold (then `estimating` is called first): a run far shorter pays next to
 * nothing, and one the guess underrates by up to half is still estimated.
 */
export async function estimateIfLong(
  ctx: ServiceContext,
  embedder: CachedEmbedder,
  plan: RunPlan,
  seconds: number,
  estimating: () => void = () => {},
): Promise<RunEstimate | null> {
  if ((await quickGuessSeconds(ctx, embedder, plan)) < seconds / 2) return null;
  estimating();
  const estimate = await estimateRun(ctx, embedder, plan);
  return estimate.seconds > seconds ? estimate : null;
}
