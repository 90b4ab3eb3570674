import { DEFAULTS } from "../config/defaults.js";
import { ValidationError } from "../errors.js";
import { ZERO_USAGE } from "../domain/metrics.js";
import type { StoredDocument, TokenUsage } from "../domain/types.js";
import { resolveQuestions, type QuestionInput } from "../evaluators/questions.js";
import { ANSWER_SYSTEM_PROMPT } from "../generators/prompt.js";
import { contextPrompt } from "../strategies/contextual-retrieval.js";
import { costOf } from "../generators/pricing.js";
import { countTokens } from "../text/tokens.js";
import type { ServiceContext } from "./context.js";
import { corpusOf, type CorpusTarget } from "./collections.js";
import type { ChunksImport } from "../strategies/imported-chunks.js";
import { withImportedChunks } from "./imported-chunks.js";
import { planVariants, type StrategyVariant, type VariantPlanInput } from "./variants.js";

/**
 * The bill of a bench before anything is spent (README "Variants and sweeps"): how many
 * variants and question runs, and roughly what they cost in money and time. Nothing is chunked,
 * embedded or asked: chunk counts follow from the document's length and each variant's size and
 * overlap, prompts from top-k chunks of that size, with the dry run's assumptions per LLM call.
 */
export interface BenchEstimate {
  variants: string[];
  /** Distinct indexes the variants need, and how many of them must be (re)built. */
  indexes: number;
  indexesToBuild: number;
  questions: number;
  /** Variants × questions: one retrieval (and, unless a dry run, one answer and one judging) each. */
  runs: number;
  costUsd: number;
  seconds: number;
  /** How the embedding time was priced: a measured rate, or not at all when nothing was measured. */
  embeddingRate: string;
}

/** Embedded (and cached) before the rate is measured, so the model's loading is not in it. */
const WARM_UP_TEXT = "chunkeval embedder warm-up";
/** Completion tokens assumed for one contextualisation call (a sentence or two of context). */
const CONTEXT_COMPLETION_TOKENS = 60;
/** Chunk size assumed for strategies without a size parameter (semantic's chunks vary). */
const UNSIZED_CHUNK_TOKENS = 256;
/** Completion tokens assumed per answer when a dry run estimates the bill of the full run. */
export const DRY_RUN_COMPLETION_TOKENS = 120;
/** Seconds assumed per chat-model call when a dry run estimates the time of the full run. */
export const DRY_RUN_LLM_CALL_SECONDS = 2;
/** Sentences the embedding judge embeds per answer and its contexts, about. */
export const JUDGE_SENTENCES_PER_ANSWER = 12;

/** Refuses a grid larger than the hard limit, naming the option that raises it. */
export function checkGridSize(variants: number, limit: number = DEFAULTS.maxSweepVariants): void {
  if (!Number.isInteger(limit) || limit < 1) throw new ValidationError(`max_variants must be a whole number >= 1, got ${limit}`);
  if (variants > limit) {
    throw new ValidationError(
      `the benchmark has ${variants} variants, more than the limit of ${limit}; ` +
        `narrow the sweep or raise the limit with --max-variants ${variants} (max_variants over HTTP)`,
    );
  }
}

function chunkSize(variant: StrategyVariant): { size: number; overlap: number } {
  const o = variant.options;
  const size = o.chunk_size ?? o.child_size ?? o.max_tokens ?? UNSIZED_CHUNK_TOKENS;
  const overlap = o.chunk_overlap ?? o.child_overlap ?? 0;
  return { size, overlap: Math.min(overlap, size - 1) };
}

const usage = (promptTokens: number, completionTokens: number): TokenUsage => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
});
const times = (u: TokenUsage, n: number): TokenUsage => usage(u.promptTokens * n, u.completionTokens * n);

export interface EstimateInput extends VariantPlanInput, CorpusTarget {
  /** Imported chunks (README "Your own chunks"), estimated as strategies beside the others. */
  chunks?: ChunksImport[];
  questions: QuestionInput[];
  dryRun?: boolean;
  /** The hard limit on variants, checked before anything else is done (default DEFAULTS.maxSweepVariants). */
  maxVariants?: number;
}

/** Estimates a bench's size, cost and time without chunking, embedding or calling a model. */
export async function estimateBench(shared: ServiceContext, input: EstimateInput): Promise<BenchEstimate> {
  const { ctx, strategies } = withImportedChunks(shared, input);
  const { variants, topK } = await planVariants(ctx, { ...input, strategies });
  // A grid over the hard limit is refused before the document is read or a question embedded.
  checkGridSize(variants.length, input.maxVariants);
  const corpus = await corpusOf(ctx, input);
  const { documents } = corpus;
  // A reference that is not there refuses the estimate as it would the bench, and what the
  // estimate stored (uploads, a new collection) is taken back, as the bench would take it back.
  try {
    resolveQuestions("the questions", input.questions, documents);
  } catch (error) {
    await corpus.undo().catch(() => undefined);
    throw error;
  }
  const embedder = await ctx.embedder();
  const generatorIsLlm = ctx.config.generator.startsWith("openai:");
  const judgeIsLlm = ctx.config.judge.startsWith("openai:");
  const tokensOf = new Map(documents.map((d) => [d.id, countTokens(d.text)]));
  const contextPromptTokens = countTokens(contextPrompt("", ""));

  const indexes = variants.filter((v, i) => variants.findIndex((w) => w.indexKey === v.indexKey) === i);
  const isCurrent = (document: StoredDocument, v: (typeof indexes)[number]) => {
    const state = ctx.chunks.state(document.id, v.indexKey);
    return state !== null && state.embedder === embedder.name && JSON.stringify(state.options) === JSON.stringify(v.options);
  };
  // What each index still has to chunk: the tokens of the documents it was not built for.
  const builds = indexes
    .map((v) => ({ v, unbuilt: documents.filter((d) => !isCurrent(d, v)).map((d) => tokensOf.get(d.id)!) }))
    .filter((b) => b.unbuilt.length > 0);
  const toBuild = builds.map((b) => b.v);
  let embeddedTokens = 0;
  let contextUsage = ZERO_USAGE;
  for (const { v, unbuilt } of builds) {
    const { size, overlap } = chunkSize(v);
    for (const docTokens of unbuilt) {
      const tokens = (docTokens * size) / (size - overlap);
      // semantic strategies embed every sentence window before they embed their chunks
      embeddedTokens += tokens + (v.strategy.startsWith("semantic") ? docTokens : 0);
      if (v.strategy === "contextual_retrieval" && generatorIsLlm) {
        // Each chunk's context prompt holds its own document.
        const chunks = Math.ceil(tokens / size);
        const perCall = usage(contextPromptTokens + docTokens + size, CONTEXT_COMPLETION_TOKENS);
        contextUsage = usage(contextUsage.promptTokens + chunks * perCall.promptTokens, contextUsage.completionTokens + chunks * perCall.completionTokens);
      }
    }
  }
  const systemTokens = countTokens(ANSWER_SYSTEM_PROMPT);
  const questionTokens = input.questions.map((q) => countTokens(q.question));
  let answers = ZERO_USAGE;
  for (const v of variants) {
    const k = v.topK ?? topK;
    const promptTokens = questionTokens.reduce((n, q) => n + systemTokens + q + k * chunkSize(v).size, 0);
    answers = usage(answers.promptTokens + promptTokens, answers.completionTokens + DRY_RUN_COMPLETION_TOKENS * questionTokens.length);
  }
  const runs = variants.length * input.questions.length;
  const full = !input.dryRun;
  const costUsd =
    costOf(embedder.name, usage(embeddedTokens, 0)) +
    costOf(ctx.config.generator, contextUsage) +
    (full ? costOf(ctx.config.generator, answers) + (judgeIsLlm ? costOf(ctx.config.judge, times(answers, 3)) : 0) : 0);

  // The embedding rate is measured on the questions, which the run embeds anyway, after one
  // warm-up text so that loading the model is not priced as embedding; when they are cached
  // already, the rate this process measured so far stands in.
  await embedder.embed([WARM_UP_TEXT]);
  const probe = embedder.metered();
  await probe.embed(input.questions.map((q) => q.question));
  const measured = probe.stats.computed > 0 ? probe.stats : embedder.stats;
  const rate = measured.computedTokens > 0 ? measured.embedSeconds / measured.computedTokens : null;
  const perText = measured.computed > 0 ? measured.embedSeconds / measured.computed : 0;
  const embedSeconds = rate === null ? 0 : embeddedTokens * rate;
  const llmCalls =
    (generatorIsLlm ? contextUsage.completionTokens / CONTEXT_COMPLETION_TOKENS : 0) + (full ? runs * ((generatorIsLlm ? 1 : 0) + (judgeIsLlm ? 3 : 0)) : 0);
  const localJudgeSeconds = full && !judgeIsLlm ? runs * JUDGE_SENTENCES_PER_ANSWER * perText : 0;
  return {
    variants: variants.map((v) => v.key),
    indexes: indexes.length,
    indexesToBuild: toBuild.length,
    questions: input.questions.length,
    runs,
    costUsd,
    seconds: embedSeconds + llmCalls * DRY_RUN_LLM_CALL_SECONDS + localJudgeSeconds,
    embeddingRate: rate === null ? "embedding time not included: nothing was embedded yet to measure it" : `${(rate * 1000).toFixed(3)} ms per token, measured`,
  };
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
