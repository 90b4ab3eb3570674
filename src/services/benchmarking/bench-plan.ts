// A benchmark's first stage: the plan (`BenchPlan`) every later stage reads: variants, corpus,
// questions located in it, and this run's metered embedders; and the estimate of a long run.
import { CorpusOffsets } from "../../domain/corpus-offsets.js";
import type { Question } from "../../evaluators/questions.js";
import type { ServiceContext } from "../context.js";
import { planGateRequest, type PlannedGates } from "./ci-gates.js";
import { corpusOf, type Corpus } from "../corpus/collections.js";
import { estimateIfLong } from "./long-run-estimate.js";
import { embedderOf, type StrategyVariant } from "../corpus/variants.js";
import type { CachedEmbedder } from "../../embedders/cache.js";
import type { ImportPlacement } from "../../strategies/imported-chunks.js";
import { withImportedChunks } from "../corpus/imported-chunks.js";
import { locateOffThread } from "../corpus/locate-off-thread.js";
import { type BenchInput, checkPlannedInput, refusedBeforeWork } from "./bench-input.js";

/** What planning settles before any work: the variants, the corpus and its questions, and this run's metered embedder. */
export interface BenchPlan {
  ctx: ServiceContext;
  /** The gates the input asked for as data (`gates`), parsed, with their baseline. */
  gates?: PlannedGates;
  variants: StrategyVariant[];
  topK: number;
  dryRun: boolean;
  corpus: Corpus;
  questions: Question[];
  /** Per imported chunks' name, how its chunks were placed in the documents (docs/strategies.md "Your own chunks"). */
  chunksLocated: Record<string, ImportPlacement["located"]>;
  /** Per import with any, where in its file the chunks found only as the same words are. */
  chunksApproximate: Record<string, string[]>;
  textOf: Map<string, string>;
  axis: CorpusOffsets;
  sharedEmbedder: CachedEmbedder;
  /** The configured embedder, metered for this run (the judge's, and every variant's without its own). */
  embedder: CachedEmbedder;
  /** Every embedder the run's variants use, by spec, metered for this run (the configured one included). */
  embedders: Map<string, CachedEmbedder>;
}

/** Stage 1: the variants to compare, the corpus (uploads stored), the questions resolved against it. */
export async function planRun(shared: ServiceContext, input: BenchInput): Promise<BenchPlan> {
  const run = withImportedChunks(shared, input);
  const { ctx } = run;
  const { variants, topK } = await checkPlannedInput(run, input);
  const gates = input.gates ? await planGateRequest(ctx, input.gates) : undefined;
  const corpus = await corpusOf(ctx, input, input);
  const { documents } = corpus;
  // Refused here, before any work, the run takes back what it stored: its uploads, a new collection.
  const { questions, chunksLocated, chunksApproximate } = await refusedBeforeWork(corpus, () =>
    locateOffThread(input.questionsSource, input.questions, input.chunks, documents),
  );
  const sharedEmbedder = await ctx.embedder();
  // This run's embeddings, counted apart from any other run sharing the embedder.
  const embedders = new Map<string, CachedEmbedder>([[ctx.config.embedder, sharedEmbedder.metered()]]);
  for (const spec of new Set(variants.map((v) => embedderOf(ctx, v)))) if (!embedders.has(spec)) embedders.set(spec, (await ctx.embedder(spec)).metered());
  return {
    ctx,
    gates,
    variants,
    topK,
    dryRun: input.dryRun ?? false,
    corpus,
    questions,
    chunksLocated,
    chunksApproximate,
    textOf: new Map(documents.map((d) => [d.id, d.text])),
    axis: new CorpusOffsets(documents),
    sharedEmbedder,
    embedder: embedders.get(ctx.config.embedder)!,
    embedders,
  };
}

/** Before any work, the estimate of a run expected to be long (`announceEstimateAbove`), as a progress event. */
export async function announceEstimate(plan: BenchPlan, input: BenchInput): Promise<void> {
  if (input.announceEstimateAbove === undefined || !input.onProgress) return;
  const { corpus, variants, topK, questions, dryRun } = plan;
  const ahead = await estimateIfLong(
    plan.ctx,
    plan.sharedEmbedder,
    { documents: corpus.documents, variants, topK, questions, dryRun },
    input.announceEstimateAbove,
    // Cutting chunks and timing the embedder take a while on a long run: the log says so meanwhile.
    () => input.onProgress?.({ stage: "plan", message: "estimating the run's time and cost (cutting chunks, timing the embedder)" }),
  );
  if (!ahead) return;
  const minutes = ahead.seconds >= 120 ? ` (${Math.round(ahead.seconds / 60)} min)` : "";
  input.onProgress({
    stage: "estimate",
    message:
      `about ${ahead.seconds.toFixed(0)} s${minutes} and $${ahead.costUsd.toFixed(4)}${dryRun ? " (dry run)" : ""}: ` +
      `${ahead.indexesToBuild} of ${ahead.indexes} indexes to build, ${ahead.runs} question runs; the time includes ${ahead.includes}`,
  });
}
