import {
  DRY_RUN_LABEL,
  estimateRun,
  isIndexCurrent,
  measuredRunSeconds,
  ASSUMED_RETRIEVAL_SECONDS,
  distinctIndexes,
  type RunEstimate,
  type RunPlan,
} from "./cost-model.js";
import type { CachedEmbedder } from "../embedders/cache.js";
import type { ServiceContext } from "./context.js";

/**
 * A floor under the embedding time per token, by the embedder's kind: a model on this machine (the
 * bundled one measures about 1 ms per token on two cores, so a quarter of that), a remote service
 * (fast, paid: its probe is avoided for runs a floor this low calls short), and the hash embedder
 * (next to nothing).
 */
function floorEmbedSecondsPerToken(embedderName: string): number {
  if (embedderName === "hash") return 0;
  return embedderName.startsWith("openai:") ? 0.00001 : 0.00025;
}
/** Characters per token, a little above English text's (about 4): the floor's token count stays below the real one. */
const FLOOR_CHARACTERS_PER_TOKEN = 5;
/** A chat model's answer, at its fastest. */
const FLOOR_CHAT_CALL_SECONDS = 0.25;

/**
 * A floor under the run's time, from what costs nothing to know: the text of the indexes still to
 * build at a rate faster than the embedder's kind embeds it (floorEmbedSecondsPerToken), and each question run as fast as the last
 * benchmark here measured (or the assumed retrieval time), plus a fast chat call where a chat model answers.
 */
export async function floorSeconds(ctx: ServiceContext, embedder: CachedEmbedder, plan: RunPlan): Promise<number> {
  const full = !plan.dryRun;
  let unbuiltCharacters = 0;
  for (const v of distinctIndexes(plan.variants))
    for (const d of plan.documents) if (!(await isIndexCurrent(ctx, d, v, embedder.name))) unbuiltCharacters += d.text.length;
  const runs = plan.variants.length * plan.questions.length;
  const stack = { embedder: embedder.name, generator: full ? ctx.config.generator : DRY_RUN_LABEL, judge: full ? ctx.config.judge : DRY_RUN_LABEL };
  const runSeconds = (await measuredRunSeconds(ctx, stack)) ?? ASSUMED_RETRIEVAL_SECONDS;
  const chatSeconds = full && ctx.config.generator.startsWith("openai:") ? FLOOR_CHAT_CALL_SECONDS : 0;
  return (unbuiltCharacters / FLOOR_CHARACTERS_PER_TOKEN) * floorEmbedSecondsPerToken(embedder.name) + runs * (runSeconds + chatSeconds);
}

/**
 * The cost model's estimate of a bench about to start (`cost-model.ts`, as a sweep gets before it
 * runs), when the run is expected to take more than `seconds`; null for a shorter run. The estimate
 * cuts chunks and probes the embedder, so it is computed only when the floor (floorSeconds) already
 * passes the threshold (then `estimating` is called first): a small run pays next to nothing for it.
 */
export async function estimateIfLong(
  ctx: ServiceContext,
  embedder: CachedEmbedder,
  plan: RunPlan,
  seconds: number,
  estimating: () => void = () => {},
): Promise<RunEstimate | null> {
  if ((await floorSeconds(ctx, embedder, plan)) < seconds) return null;
  estimating();
  const estimate = await estimateRun(ctx, embedder, plan);
  return estimate.seconds > seconds ? estimate : null;
}
