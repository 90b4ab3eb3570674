import { DEFAULTS } from "../../config/defaults.js";
import type { Question, QuestionInput } from "../../evaluators/questions.js";
import { locateOffThread } from "../corpus/locate-off-thread.js";
import type { ServiceContext } from "../context.js";
import { corpusOf, type CorpusTarget } from "../corpus/collections.js";
import type { ChunksImport } from "../../strategies/imported-chunks.js";
import { withImportedChunks } from "../corpus/imported-chunks.js";
import { planVariants, type VariantPlanInput } from "../corpus/variants.js";
import { estimateRun, type RunEstimate } from "./cost-model.js";

/**
 * The bill of a bench before anything is spent (docs/benchmarks.md "Variants and sweeps"): how many
 * variants and question runs, and roughly what they cost in money and time, by the cost model
 * (`cost-model.ts`) a dry run uses for the full run too.
 */
export interface BenchEstimate extends Omit<RunEstimate, "referenceUsd"> {
  variants: string[];
  questions: number;
}

export interface EstimateInput extends VariantPlanInput, CorpusTarget {
  /** Imported chunks (docs/strategies.md "Your own chunks"), estimated as strategies beside the others. */
  chunks?: ChunksImport[];
  questions: QuestionInput[];
  dryRun?: boolean;
}

/** Estimates a bench's size, cost and time without chunking, embedding or calling a model. */
export async function estimateBench(shared: ServiceContext, input: EstimateInput): Promise<BenchEstimate> {
  const { ctx, strategies } = withImportedChunks(shared, input);
  // A grid over the hard limit is refused here, before the document is read or a question embedded.
  const { variants, topK } = await planVariants(ctx, { ...input, strategies });
  const corpus = await corpusOf(ctx, input);
  const { documents } = corpus;
  // A reference that is not there refuses the estimate as it would the bench, and what the
  // estimate stored (uploads, a new collection) is taken back, as the bench would take it back.
  let questions: Question[];
  try {
    ({ questions } = await locateOffThread("the questions", input.questions, input.chunks, documents));
  } catch (error) {
    await corpus.undo().catch(() => undefined);
    throw error;
  }
  const embedder = await ctx.embedder();
  const { referenceUsd: _reference, ...estimate } = await estimateRun(ctx, embedder, { documents, variants, topK, questions, dryRun: input.dryRun ?? false });
  return { variants: variants.map((v) => v.key), questions: questions.length, ...estimate };
}

export type SweepDecision = { run: true; ask: boolean } | { run: false; reason: string };

/**
 * Whether a bench may start: below the thresholds it runs; above any of them it runs when the
 * user said yes (`--yes`) or, in a terminal, after asking; without a terminal it is refused.
 */
export function sweepDecision(estimate: BenchEstimate, options: { yes: boolean; interactive: boolean }): SweepDecision {
  const over = [
    estimate.variants.length > DEFAULTS.confirmSweepVariants ? `${estimate.variants.length} variants (more than ${DEFAULTS.confirmSweepVariants})` : null,
    estimate.costUsd > DEFAULTS.confirmSweepUsd ? `about $${estimate.costUsd.toFixed(2)} (more than $${DEFAULTS.confirmSweepUsd})` : null,
    estimate.seconds > DEFAULTS.confirmSweepSeconds ? `about ${estimate.seconds.toFixed(0)} s (more than ${DEFAULTS.confirmSweepSeconds} s)` : null,
  ].filter((x): x is string => x !== null);
  if (over.length === 0 || options.yes) return { run: true, ask: false };
  if (options.interactive) return { run: true, ask: true };
  return { run: false, reason: `this benchmark is large: ${over.join(", ")}; pass --yes to run it without a terminal to confirm in` };
}
