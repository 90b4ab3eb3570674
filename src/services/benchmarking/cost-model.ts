import { ZERO_USAGE } from "../../domain/metrics.js";
import { defaultWeights } from "../../domain/scoring.js";
import type { MetricRegistry } from "../../domain/metric-registry/registry.js";
import { aggregate, compareWithBest } from "../../domain/aggregate.js";
import type { QuestionResult } from "../../domain/experiment.js";
import { emptyResult } from "../../domain/question-result.js";
import { DEFAULTS } from "../../config/defaults.js";
import type { StoredDocument, TokenUsage } from "../../domain/types.js";
import { judgeTarget, type Question } from "../../evaluators/questions.js";
import { contextRelevanceEvidence, sentencesOf } from "../../evaluators/embedding-judge.js";
import type { CachedEmbedder } from "../../embedders/cache.js";
import { percentile } from "../../domain/vectors.js";
import { chunkOffThread } from "../../strategies/offload.js";
import { indexedText } from "../../text/indexed-text.js";
import { mapWithConcurrency } from "../../domain/concurrency.js";
import { PROCESS_CONCURRENCY } from "../corpus/process.js";
import { ANSWER_SYSTEM_PROMPT } from "../../generators/prompt.js";
import { contextPrompt } from "../../strategies/contextual-retrieval.js";
import { targetSize } from "../../strategies/strategy.js";
import { costOf, REFERENCE_CHAT_MODEL, REFERENCE_EMBEDDING_MODEL, referenceCost } from "../../generators/pricing.js";
import { countTokens } from "../../text/tokens.js";
import type { ServiceContext } from "../context.js";
import { embedderOf, variantSearchPlan, type StrategyVariant } from "../corpus/variants.js";
import type { TimeParts } from "../../domain/time-estimate.js";

export type { TimeParts };

/**
 * The one cost model of a bench (docs/benchmarks.md "Variants and sweeps", "Cost bound"): what a run would
 * spend in money and time from the state the stores are in now. The sweep estimate asks it before
 * a bench; a dry run asks it, at its end, for the full run it stands in for. Nothing is stored or
 * asked of a chat model: the chunks of the indexes to build are cut (where no model is needed to
 * cut them, else counted from each variant's size and overlap) and looked up in the embedding
 * cache with the other texts the run embeds; prompts are top-k chunks of that size (or, from a dry
 * run, the exact prompts it built). The embedder embeds a sample of sentences to measure its rate.
 */
export interface RunEstimate {
  /** Distinct indexes the variants need, and how many of them must be (re)built. */
  indexes: number;
  indexesToBuild: number;
  /** Variants × questions: one retrieval (and, unless a dry run, one answer and one judging) each. */
  runs: number;
  costUsd: number;
  /** The same tokens on the reference models (REFERENCE_CHAT_MODEL + REFERENCE_EMBEDDING_MODEL). */
  referenceUsd: number;
  seconds: number;
  /** What the time is made of (the parts and their rates), to print beside it. */
  time: TimeParts;
  /** The parts in words: what the time includes and how each was priced. */
  includes: string;
}

/** What a run would do: the corpus, the variants over it, the questions; a dry run retrieves only. */
export interface RunPlan {
  documents: StoredDocument[];
  variants: StrategyVariant[];
  topK: number;
  questions: Question[];
  dryRun: boolean;
  /** The answer prompts' tokens, summed, when they are known exactly (a dry run built them); else top-k chunks of each variant's size. */
  answerPromptTokens?: number;
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
/** Chunk size assumed for strategies that declare no target size (imported chunks, a module without `targetTokens`). */
const UNSIZED_CHUNK_TOKENS = 256;
/** Completion tokens assumed per answer when the model estimates the bill of a full run. */
export const ANSWER_COMPLETION_TOKENS = 120;
/** Seconds assumed per chat-model call. */
export const LLM_CALL_SECONDS = 2;
/** Chat-model calls an LLM judge makes per answer (relevance, statements, verification). */
const LLM_JUDGE_CALLS = 3;
/**
 * Seconds assumed for one question's retrieval, and for its local answer and judging, when no
 * earlier benchmark in the data directory measured them: a little above the medians measured on
 * the bundled handbook on a shared two-core machine (3.6 ms and 3.6 ms per run).
 */
export const ASSUMED_RETRIEVAL_SECONDS = 0.005;
export const ASSUMED_LOCAL_ANSWER_AND_JUDGING_SECONDS = 0.005;
/** How a dry run records its generator and judge. */
export const DRY_RUN_LABEL = "none (dry run)";

/** The size a variant's chunks aim at and their overlap, as its strategy declares them; an assumed size when it declares none. */
function chunkSize(ctx: ServiceContext, variant: StrategyVariant): { size: number; overlap: number } {
  return targetSize(ctx.strategies.get(variant.strategy), variant.options) ?? { size: UNSIZED_CHUNK_TOKENS, overlap: 0 };
}

const usage = (promptTokens: number, completionTokens: number): TokenUsage => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
});
const times = (u: TokenUsage, n: number): TokenUsage => usage(u.promptTokens * n, u.completionTokens * n);
const plus = (a: TokenUsage, b: TokenUsage): TokenUsage => usage(a.promptTokens + b.promptTokens, a.completionTokens + b.completionTokens);

/**
 * Embedding seconds per token a guess assumes (the quick guess of long-run-estimate.ts, and the
 * variants' other embedders here), by the embedder's kind: a model on this
 * machine (the bundled one measures about 1 ms per token on two cores: half of that), a remote
 * service (fast, paid: its probe is spared for runs a guess this low calls short), and the hash
 * embedder (next to nothing).
 */
export function guessedEmbedSecondsPerToken(embedderName: string): number {
  if (embedderName === "hash") return 0;
  return embedderName.startsWith("openai:") ? 0.00001 : 0.0005;
}
/** The indexes of these variants (variants differing only at search time share one). */
export function distinctIndexes(variants: StrategyVariant[]): StrategyVariant[] {
  return variants.filter((v, i) => variants.findIndex((w) => w.indexKey === v.indexKey) === i);
}

/** Whether this document's index for the variant is stored, made with its options and its embedder: then a run reuses it. */
export async function isIndexCurrent(ctx: ServiceContext, document: StoredDocument, v: StrategyVariant): Promise<boolean> {
  const state = await ctx.chunks.state(document.id, v.indexKey);
  if (state === null || JSON.stringify(state.options) !== JSON.stringify(v.options)) return false;
  return state.embedder === (await ctx.embedder(embedderOf(ctx, v))).name;
}

/** Estimates what the planned run would spend in money and time, from what the stores hold now. */
export async function estimateRun(ctx: ServiceContext, embedder: CachedEmbedder, plan: RunPlan): Promise<RunEstimate> {
  const { documents, variants, questions } = plan;
  const full = !plan.dryRun;
  const generatorIsLlm = ctx.config.generator.startsWith("openai:");
  const judgeIsLlm = ctx.config.judge.startsWith("openai:");
  const tokensOf = new Map(documents.map((d) => [d.id, countTokens(d.text)]));
  const contextPromptTokens = countTokens(contextPrompt("", ""));

  const indexes = distinctIndexes(variants);
  // What each index still has to chunk: the documents it was not built for.
  const builds: Array<{ v: StrategyVariant; unbuilt: StoredDocument[] }> = [];
  for (const v of indexes) {
    const unbuilt: StoredDocument[] = [];
    for (const d of documents) if (!(await isIndexCurrent(ctx, d, v))) unbuilt.push(d);
    if (unbuilt.length > 0) builds.push({ v, unbuilt });
  }
  // The chunk texts the builds will embed, cut now (side by side, as processing cuts them) where
  // the strategy needs no model to cut them; the others (semantic, contextual with a chat model)
  // are counted from their size and overlap.
  const contextualByLlm = (v: StrategyVariant) => ctx.strategies.get(v.strategy).callsLlm === true && generatorIsLlm;
  const pairs = builds.flatMap(({ v, unbuilt }) => unbuilt.map((document) => ({ v, document })));
  const cuts = await mapWithConcurrency(pairs, PROCESS_CONCURRENCY, async ({ v, document }) => (contextualByLlm(v) ? null : chunkTextsOf(ctx, document, v)));
  // What each embedder embeds (a variant's own `@embedder=`, else the configured one): texts to look up in its cache, tokens sized without a cut.
  const toEmbed = new Map<string, { texts: string[]; sizedTokens: number }>();
  const embedding = (spec: string) => toEmbed.get(spec) ?? toEmbed.set(spec, { texts: [], sizedTokens: 0 }).get(spec)!;
  let contextUsage = ZERO_USAGE;
  pairs.forEach(({ v, document }, i) => {
    const { size, overlap } = chunkSize(ctx, v);
    const docTokens = tokensOf.get(document.id)!;
    const tokens = (docTokens * size) / (size - overlap);
    const cut = cuts[i];
    const own = embedding(embedderOf(ctx, v));
    if (cut) own.texts.push(...cut);
    // a strategy that embeds every sentence (semantic) does so before it embeds its chunks
    else own.sizedTokens += tokens + (ctx.strategies.get(v.strategy).embedsSentences ? docTokens : 0);
    if (contextualByLlm(v)) {
      // Each chunk's context prompt holds its own document.
      const chunks = Math.ceil(tokens / size);
      contextUsage = plus(contextUsage, times(usage(contextPromptTokens + docTokens + size, CONTEXT_COMPLETION_TOKENS), chunks));
    }
  });
  const runs = variants.length * questions.length;
  const promptTokens = plan.answerPromptTokens ?? sizedPromptTokens(ctx, variants, plan.topK, questions);
  const answers = usage(promptTokens, ANSWER_COMPLETION_TOKENS * runs);
  const judging = judgeIsLlm ? times(answers, LLM_JUDGE_CALLS) : ZERO_USAGE;
  // The other texts the run embeds, looked up in the cache: the questions (dense or hybrid retrieval), and for the
  // embedding judge the expected answers, and the documents' sentences and the questions where it embeds them: to judge
  // context relevance of keyword retrieval (contextRelevanceEvidence), and the context's sentences
  // (sentences of the documents too) for faithfulness of a chat model's answers. The extractive
  // answers' sentences cannot be known before retrieval: not counted.
  // Each variant's mode as the run resolves it: its own, else the run's one way (domain/default-search-mode.ts).
  const modes = variants.map((v) => variantSearchPlan(ctx, v).mode);
  const judgeEmbedsSentences =
    generatorIsLlm ||
    variants.some((v, i) => {
      const evidence = contextRelevanceEvidence(modes[i]!, embedder.name, embedderOf(ctx, v));
      return "evidence" in evidence && evidence.evidence === "sentence-ranking";
    });
  // Questions are embedded, by each variant's embedder, only for a dense or hybrid search.
  const searchingEmbedders = new Set(variants.filter((_, i) => modes[i] !== "keyword").map((v) => embedderOf(ctx, v)));
  for (const spec of searchingEmbedders) embedding(spec).texts.push(...questions.map((q) => q.question));
  // The judge embeds with the configured embedder.
  if (full && !judgeIsLlm) {
    embedding(ctx.config.embedder).texts.push(
      ...questions.map(judgeTarget).filter((t): t is string => t !== null),
      ...(judgeEmbedsSentences ? [...documents.flatMap((d) => sentencesOf([d.text])), ...questions.map((q) => q.question)] : []),
    );
  }
  // Each embedder's texts its cache does not hold, priced at its rate; the configured one's time
  // is measured below, the others' guessed by their kind (a remote model is not called to time it).
  let newEmbeddingTokens = 0;
  let otherEmbedders = { tokens: 0, seconds: 0 };
  let embeddingsUsd = 0;
  for (const [spec, { texts, sizedTokens }] of toEmbed) {
    const own = spec === ctx.config.embedder ? embedder : await ctx.embedder(spec);
    const tokens = Math.round(sizedTokens) + (await own.uncached(texts)).reduce((n, t) => n + countTokens(t), 0);
    embeddingsUsd += costOf(own.name, usage(tokens, 0));
    if (spec === ctx.config.embedder) newEmbeddingTokens += tokens;
    else otherEmbedders = { tokens: otherEmbedders.tokens + tokens, seconds: otherEmbedders.seconds + tokens * guessedEmbedSecondsPerToken(own.name) };
  }
  const embeddings = usage(newEmbeddingTokens + otherEmbedders.tokens, 0);
  const chat = full ? plus(contextUsage, plus(answers, judging)) : contextUsage;
  const costUsd =
    embeddingsUsd + costOf(ctx.config.generator, contextUsage) + (full ? costOf(ctx.config.generator, answers) + costOf(ctx.config.judge, judging) : 0);

  const measured = await measuredRunSeconds(ctx, runStack(ctx, embedder.name, full));
  const contextCalls = generatorIsLlm ? contextUsage.completionTokens / CONTEXT_COMPLETION_TOKENS : 0;
  // A measured run holds its answer and judge calls; without one they are priced as assumed.
  const runCalls = measured === null ? runs * chatCallsPerRun(ctx, full) : 0;
  const time: TimeParts = {
    newEmbeddingTokens,
    embedSecondsPerToken: newEmbeddingTokens > 0 ? await measureEmbedRate(embedder, documents) : null,
    ...(otherEmbedders.tokens > 0 ? { otherEmbedders } : {}),
    runs,
    runSeconds: measured ?? ASSUMED_RETRIEVAL_SECONDS + (full ? ASSUMED_LOCAL_ANSWER_AND_JUDGING_SECONDS : 0),
    runRate: measured === null ? "assumed" : "measured",
    llmCalls: contextCalls + runCalls,
    variants: variants.length,
    scoringSeconds: measureScoringSeconds(ctx.metrics, questions.length, full),
  };
  const { seconds, includes } = estimateSeconds(time);
  return {
    indexes: indexes.length,
    indexesToBuild: builds.length,
    runs,
    costUsd,
    referenceUsd: referenceCost(REFERENCE_CHAT_MODEL, chat) + referenceCost(REFERENCE_EMBEDDING_MODEL, embeddings),
    seconds,
    time,
    includes,
  };
}

/** The answer prompts' tokens of every run when each retrieves top-k chunks of its variant's size. */
function sizedPromptTokens(ctx: ServiceContext, variants: StrategyVariant[], topK: number, questions: Question[]): number {
  const systemTokens = countTokens(ANSWER_SYSTEM_PROMPT);
  const questionTokens = questions.map((q) => countTokens(q.question));
  let total = 0;
  for (const v of variants) {
    const k = v.topK ?? topK;
    total += questionTokens.reduce((n, q) => n + systemTokens + q + k * chunkSize(ctx, v).size, 0);
  }
  return total;
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
    const drafts = await chunkOffThread(
      strategy,
      { document, embed: refuse, keepPageFurniture: ctx.config.keepPageFurniture },
      { timeoutSeconds: ctx.config.chunkTimeoutSeconds },
    );
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

/**
 * Seconds the scoring after the runs takes per variant (its means with their bootstrap intervals,
 * its paired comparison with the best), timed now with the real scoring code on placeholder
 * results shaped like the run's (as many questions, the same metrics measured): the work depends
 * on those counts, not on the values. The first pass is not timed: it compiles the code.
 */
function measureScoringSeconds(metrics: MetricRegistry, questions: number, full: boolean): number {
  const results = Array.from({ length: Math.max(1, questions) }, (_, i) => placeholderResult(metrics, i, full));
  const options = { metrics, weights: defaultWeights(metrics), hallucinationThreshold: DEFAULTS.hallucinationThreshold, unmeasurable: {} };
  const pass = () => {
    aggregate(results, { ...options, costUsd: 0 });
    compareWithBest({ best: results, other: [...results].reverse() }, "best", options);
  };
  pass();
  const started = performance.now();
  pass();
  return (performance.now() - started) / 1000;
}

/** A scored question for the scoring probe: every metric the run measures set, to values that differ between questions. */
function placeholderResult(metrics: MetricRegistry, i: number, full: boolean): QuestionResult {
  const v = (i % 7) / 7;
  const judged = full ? v : null;
  const result = emptyResult({ question: "", expectedAnswer: null, references: [{ text: "", start: 0, end: 1 }] }, metrics);
  result.answered = full;
  result.metrics = Object.fromEntries(
    metrics.perQuestion.map((m) => [m.perQuestion.field, m.perQuestion.stage === "answer" ? judged : v]),
  ) as unknown as QuestionResult["metrics"];
  return result;
}

/**
 * The median seconds of one question run (retrieval, answer, judging) in the newest benchmark in
 * this data directory with the same embedder, generator and judge: measured on this machine. A
 * first run's one-time costs (the document's sentences embedded for the judge, a question's first
 * embedding) fall in a few runs, so the median leaves them out.
 */
/** The models a run's question runs use: what an earlier benchmark must have used for its pace to count. */
export function runStack(ctx: ServiceContext, embedderName: string, full: boolean): { embedder: string; generator: string; judge: string } {
  return { embedder: embedderName, generator: full ? ctx.config.generator : DRY_RUN_LABEL, judge: full ? ctx.config.judge : DRY_RUN_LABEL };
}

/** Chat-model calls of one question run: an answer from a chat generator, LLM_JUDGE_CALLS from a chat judge; none in a dry run. */
export function chatCallsPerRun(ctx: ServiceContext, full: boolean): number {
  if (!full) return 0;
  return (ctx.config.generator.startsWith("openai:") ? 1 : 0) + (ctx.config.judge.startsWith("openai:") ? LLM_JUDGE_CALLS : 0);
}

export async function measuredRunSeconds(ctx: ServiceContext, stack: { embedder: string; generator: string; judge: string }): Promise<number | null> {
  for (const { id } of (await ctx.experiments.list(0, RUN_RATE_LOOKBACK)).items) {
    const details = (await ctx.experiments.get(id))?.details;
    if (!details || details.embedder !== stack.embedder || details.generator !== stack.generator || details.judge !== stack.judge) continue;
    const seconds = Object.values(await ctx.experiments.results(id))
      .flat()
      .filter((r) => r.error === null)
      .map((r) => r.stageSeconds.retrieval + r.stageSeconds.generation + r.stageSeconds.judging);
    if (seconds.length > 0) return percentile(seconds, 50);
  }
  return null;
}

const ms = (seconds: number, digits: number) => `${(seconds * 1000).toFixed(digits)} ms`;

/** The estimate's seconds from its parts, and the parts in words (what is included, at which rate, and what is not). */
export function estimateSeconds(parts: TimeParts): { seconds: number; includes: string } {
  const embedSeconds = parts.newEmbeddingTokens * (parts.embedSecondsPerToken ?? 0) + (parts.otherEmbedders?.seconds ?? 0);
  const runSeconds = parts.runs * parts.runSeconds;
  const llmSeconds = parts.llmCalls * LLM_CALL_SECONDS;
  const scoringSeconds = parts.variants * parts.scoringSeconds;
  const said = [
    parts.embedSecondsPerToken === null
      ? "nothing new to embed: the cache holds every text"
      : `embedding ${parts.newEmbeddingTokens} tokens the cache does not hold at ${ms(parts.embedSecondsPerToken, 3)} per token ` +
        `(measured now, past the model's load and first batch)`,
    parts.otherEmbedders
      ? `${parts.otherEmbedders.tokens} tokens for the variants' other embedders at their kind's usual rate ` +
        `(${parts.otherEmbedders.seconds.toFixed(1)} s; not measured)`
      : null,
    parts.runRate === "measured"
      ? `${parts.runs} question runs at ${ms(parts.runSeconds, 1)} each (the median of the last such benchmark here)`
      : `${parts.runs} question runs at an assumed ${ms(parts.runSeconds, 1)} each of local work ` +
        `(no earlier benchmark in this data directory with this embedder, generator and judge to measure one)`,
    `scoring ${parts.variants} variants at ${ms(parts.scoringSeconds, 1)} each (means, bootstrap intervals, comparisons; measured now)`,
    parts.llmCalls > 0 ? `${Math.round(parts.llmCalls)} chat-model calls at an assumed ${LLM_CALL_SECONDS} s each` : null,
    "left out: loading the model and opening the stores (once per process)",
  ].filter((x): x is string => x !== null);
  return { seconds: embedSeconds + runSeconds + llmSeconds + scoringSeconds, includes: said.join("; ") };
}
