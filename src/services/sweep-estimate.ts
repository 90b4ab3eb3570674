import { DEFAULTS } from "../config/defaults.js";
import { ValidationError } from "../errors.js";
import { ZERO_USAGE } from "../domain/metrics.js";
import type { StoredDocument, TokenUsage } from "../domain/types.js";
import { resolveQuestions, judgeTarget, type Question, type QuestionInput } from "../evaluators/questions.js";
import { contextRelevanceEvidence, sentencesOf } from "../evaluators/embedding-judge.js";
import type { CachedEmbedder } from "../embedders/cache.js";
import { percentile } from "../domain/vectors.js";
import { chunkOffThread } from "../strategies/offload.js";
import { indexedText } from "../text/indexed-text.js";
import { mapWithConcurrency } from "../domain/concurrency.js";
import { PROCESS_CONCURRENCY } from "./process.js";
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
 * variants and question runs, and roughly what they cost in money and time. Nothing is stored or
 * asked: the chunks of the indexes to build are cut (where no model is needed to cut them, else
 * counted from each variant's size and overlap) and looked up in the embedding cache with the
 * other texts the run embeds; prompts are top-k chunks of that size, with the dry run's
 * assumptions per LLM call. The embedder embeds a sample of sentences to measure its rate.
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
  /** What the time is made of (the parts and their rates), to print beside it. */
  time: TimeParts;
  /** The parts in words: what the time includes and how each was priced. */
  includes: string;
}

/**
 * The time of a bench in parts: the embeddings the cache does not hold at a rate measured now,
 * the question runs (retrieval, answer, judging of texts already embedded) at a rate measured in
 * an earlier benchmark, and the chat-model calls nothing measured, at an assumed duration.
 */
export interface TimeParts {
  /** Tokens to embed that the cache does not hold: chunks of the indexes to build, and the questions, expected answers and document sentences not cached. */
  newEmbeddingTokens: number;
  /** Seconds per token measured on this embedder after its load and a first batch; null when nothing needs embedding (nothing is measured). */
  embedSecondsPerToken: number | null;
  runs: number;
  /** Median seconds of one question run in the newest comparable benchmark in this data directory; null without one. */
  runSeconds: number | null;
  /** Chat-model calls priced at DRY_RUN_LLM_CALL_SECONDS each (contextualisation, and answers and judging when no run was measured). */
  llmCalls: number;
}

/** Texts of the first, untimed batch: enough to reach every worker of a pool (4 each, up to 4 workers), so loading is not in the rate. */
const WARM_UP_TEXTS = 16;
/** Texts of each timed batch: enough for every worker to run batches as full as the run's. */
const PROBE_TEXTS = 32;
/** Timed batches: the faster one's rate counts. */
const PROBE_BATCHES = 2;
/** Newest experiments looked through for one run with the same embedder, generator and judge. */
const RUN_RATE_LOOKBACK = 20;
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
  let questions: Question[];
  try {
    questions = resolveQuestions("the questions", input.questions, documents);
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
  // What each index still has to chunk: the documents it was not built for.
  const builds = indexes.map((v) => ({ v, unbuilt: documents.filter((d) => !isCurrent(d, v)) })).filter((b) => b.unbuilt.length > 0);
  const toBuild = builds.map((b) => b.v);
  // The chunk texts the builds will embed, cut now (side by side, as processing cuts them) where
  // the strategy needs no model to cut them; the others (semantic, contextual with a chat model)
  // are counted from their size and overlap.
  const contextualByLlm = (v: StrategyVariant) => v.strategy === "contextual_retrieval" && generatorIsLlm;
  const pairs = builds.flatMap(({ v, unbuilt }) => unbuilt.map((document) => ({ v, document })));
  const cuts = await mapWithConcurrency(pairs, PROCESS_CONCURRENCY, async ({ v, document }) => (contextualByLlm(v) ? null : chunkTextsOf(ctx, document, v)));
  const chunkTexts: string[] = [];
  let sizedTokens = 0;
  let contextUsage = ZERO_USAGE;
  pairs.forEach(({ v, document }, i) => {
    const { size, overlap } = chunkSize(v);
    const docTokens = tokensOf.get(document.id)!;
    const tokens = (docTokens * size) / (size - overlap);
    const cut = cuts[i];
    if (cut) chunkTexts.push(...cut);
    // semantic strategies embed every sentence window before they embed their chunks
    else sizedTokens += tokens + (v.strategy.startsWith("semantic") ? docTokens : 0);
    if (contextualByLlm(v)) {
      // Each chunk's context prompt holds its own document.
      const chunks = Math.ceil(tokens / size);
      const perCall = usage(contextPromptTokens + docTokens + size, CONTEXT_COMPLETION_TOKENS);
      contextUsage = usage(contextUsage.promptTokens + chunks * perCall.promptTokens, contextUsage.completionTokens + chunks * perCall.completionTokens);
    }
  });
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
  // The other texts the run embeds, looked up in the cache: the questions (retrieval), and for the
  // embedding judge the expected answers, and the documents' sentences where it embeds them: to judge
  // context relevance of keyword retrieval (contextRelevanceEvidence), and the context's sentences
  // (sentences of the documents too) for faithfulness of a chat model's answers. The extractive
  // answers' sentences cannot be known before retrieval: not counted.
  const judgeEmbedsSentences =
    generatorIsLlm || variants.some((v) => v.retrieval === "keyword" && "evidence" in contextRelevanceEvidence("keyword", embedder.name));
  const judgeTexts =
    full && !judgeIsLlm
      ? [...questions.map(judgeTarget).filter((t): t is string => t !== null), ...(judgeEmbedsSentences ? documents.flatMap((d) => sentencesOf([d.text])) : [])]
      : [];
  const newTexts = embedder.uncached([...chunkTexts, ...questions.map((q) => q.question), ...judgeTexts]);
  const newEmbeddingTokens = Math.round(sizedTokens) + newTexts.reduce((n, t) => n + countTokens(t), 0);
  const costUsd =
    costOf(embedder.name, usage(newEmbeddingTokens, 0)) +
    costOf(ctx.config.generator, contextUsage) +
    (full ? costOf(ctx.config.generator, answers) + (judgeIsLlm ? costOf(ctx.config.judge, times(answers, 3)) : 0) : 0);

  const runSeconds = measuredRunSeconds(ctx, {
    embedder: embedder.name,
    generator: full ? ctx.config.generator : DRY_RUN_LABEL,
    judge: full ? ctx.config.judge : DRY_RUN_LABEL,
  });
  const contextCalls = generatorIsLlm ? contextUsage.completionTokens / CONTEXT_COMPLETION_TOKENS : 0;
  // A measured run holds its answer and judge calls; without one they are priced as assumed.
  const runCalls = full && runSeconds === null ? runs * ((generatorIsLlm ? 1 : 0) + (judgeIsLlm ? 3 : 0)) : 0;
  const time: TimeParts = {
    newEmbeddingTokens,
    embedSecondsPerToken: newEmbeddingTokens > 0 ? await measureEmbedRate(embedder, documents) : null,
    runs,
    runSeconds,
    llmCalls: contextCalls + runCalls,
  };
  const { seconds, includes } = estimateSeconds(time);
  return {
    variants: variants.map((v) => v.key),
    indexes: indexes.length,
    indexesToBuild: toBuild.length,
    questions: input.questions.length,
    runs,
    costUsd,
    seconds,
    time,
    includes,
  };
}

/**
 * The texts a variant's build embeds for a document, cut as processing cuts them (linear in the
 * text, off the main thread); null when the strategy asks for the embedder to cut them (semantic).
 */
async function chunkTextsOf(ctx: ServiceContext, document: StoredDocument, v: StrategyVariant): Promise<string[] | null> {
  const strategy = await ctx.strategies.get(v.strategy).create({ ...ctx.config.strategyOptions[v.strategy], ...v.options });
  const refuse = async (): Promise<Float32Array[]> => {
    throw new Error("the estimate does not embed while cutting chunks");
  };
  try {
    const drafts = await chunkOffThread(strategy, { document, embed: refuse }, { timeoutSeconds: ctx.config.chunkTimeoutSeconds });
    return drafts.filter((d) => d.role === "chunk").map(indexedText);
  } catch {
    // Whatever stops the cut now (the embedder refused, or a failure the run will report), sizes stand in.
    return null;
  }
}

/**
 * Seconds per token of this embedder on the documents' sentences, past the cache: a first batch
 * (which waits for the model to load and warms every worker) is not timed, so neither one-time
 * cost is priced per token. Of the timed batches the faster counts: a moment when the shared
 * machine was busy elsewhere is not the rate. The probe embeds with the model only; it stores nothing.
 */
async function measureEmbedRate(embedder: CachedEmbedder, documents: StoredDocument[]): Promise<number> {
  const sentences = documents.flatMap((d) => sentencesOf([d.text]));
  const pool = sentences.length > 0 ? sentences : documents.map((d) => d.text);
  // A short document repeats its sentences: the model embeds each copy all the same.
  const take = (from: number, n: number) => Array.from({ length: n }, (_, i) => pool[(from + i) % pool.length]!);
  await embedder.timeModel(take(0, WARM_UP_TEXTS));
  const rates: number[] = [];
  for (let b = 0; b < PROBE_BATCHES; b++) {
    const batch = take(WARM_UP_TEXTS + b * PROBE_TEXTS, PROBE_TEXTS);
    const seconds = await embedder.timeModel(batch);
    rates.push(
      seconds /
        Math.max(
          1,
          batch.reduce((n, t) => n + countTokens(t), 0),
        ),
    );
  }
  return Math.min(...rates);
}

/** How a dry run records its generator and judge. */
const DRY_RUN_LABEL = "none (dry run)";

/**
 * The median seconds of one question run (retrieval, answer, judging) in the newest benchmark in
 * this data directory with the same embedder, generator and judge: measured on this machine. A
 * first run's one-time costs (the document's sentences embedded for the judge, a question's first
 * embedding) fall in a few runs, so the median leaves them out.
 */
function measuredRunSeconds(ctx: ServiceContext, stack: { embedder: string; generator: string; judge: string }): number | null {
  for (const { id } of ctx.experiments.list(0, RUN_RATE_LOOKBACK).items) {
    const details = ctx.experiments.get(id)?.details;
    if (!details || details.embedder !== stack.embedder || details.generator !== stack.generator || details.judge !== stack.judge) continue;
    const seconds = Object.values(ctx.experiments.results(id))
      .flat()
      .filter((r) => r.error === null)
      .map((r) => r.stageSeconds.retrieval + r.stageSeconds.generation + r.stageSeconds.judging);
    if (seconds.length > 0) return percentile(seconds, 50);
  }
  return null;
}

/** The estimate's seconds from its parts, and the parts in words (what is included, at which rate). */
export function estimateSeconds(parts: TimeParts): { seconds: number; includes: string } {
  const embedSeconds = parts.newEmbeddingTokens * (parts.embedSecondsPerToken ?? 0);
  const runSeconds = parts.runs * (parts.runSeconds ?? 0);
  const llmSeconds = parts.llmCalls * DRY_RUN_LLM_CALL_SECONDS;
  const said = [
    parts.embedSecondsPerToken === null
      ? "nothing new to embed: the cache holds every text"
      : `embedding ${parts.newEmbeddingTokens} tokens the cache does not hold at ${(parts.embedSecondsPerToken * 1000).toFixed(3)} ms per token ` +
        `(measured now, past the model's load and first batch)`,
    parts.runSeconds === null
      ? `${parts.runs} question runs not timed: no earlier benchmark in this data directory with this embedder, generator and judge`
      : `${parts.runs} question runs at ${(parts.runSeconds * 1000).toFixed(1)} ms each (the median of the last such benchmark here)`,
    parts.llmCalls > 0 ? `${Math.round(parts.llmCalls)} chat-model calls at an assumed ${DRY_RUN_LLM_CALL_SECONDS} s each` : null,
  ].filter((x): x is string => x !== null);
  return { seconds: embedSeconds + runSeconds + llmSeconds, includes: said.join("; ") };
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
