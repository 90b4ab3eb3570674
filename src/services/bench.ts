import type { GateOutcome } from "../domain/gate-outcome.js";
import { DEFAULTS } from "../config/defaults.js";
import { BenchmarkError, CancelledError, describeError, LlmCallLimitError, throwIfCancelled, ValidationError } from "../errors.js";
import { newId, nowTimestamp } from "../domain/ids.js";
import type {
  AggregateMetrics,
  DocumentBreakdown,
  Experiment,
  ExperimentDetails,
  ExperimentRecord,
  QuestionResult,
  SharedSeconds,
  StrategyIndexing,
} from "../domain/experiment.js";
import { aggregate, compareWithBestInTurns, verdictSentence, type AggregateOptions } from "../domain/aggregate.js";
import { groupWinner } from "../domain/group-winner.js";
import { agreementNote, EMBEDDER_AXIS, outcomesAcross, outcomesByRetriever, retrieverAgreementNote, type AxisOutcome } from "../domain/retriever-agreement.js";
import { CorpusOffsets } from "../domain/corpus-offsets.js";
import { rankCuts, rankingDepth } from "../domain/rank-metrics.js";
import { retrievedTokensTradeOff } from "../domain/tokens-trade-off.js";
import { addUsage, ZERO_USAGE } from "../domain/metrics.js";
import { bestStrategy, defaultWeights } from "../domain/scoring.js";
import { scoreAnswer, scoreRetrieval } from "../domain/question-scoring.js";
import { strategyGaps, unmeasurableMetrics } from "../domain/measurability.js";
import type { RetrievedQuestion } from "../domain/question-evaluation.js";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, CONFIDENCE_LEVEL } from "../domain/statistics.js";
import type { RunOptions, StoredDocument, TokenUsage } from "../domain/types.js";
import { negativeControlCounts } from "../domain/negative-controls.js";
import { judgeTarget, type Question, type QuestionInput } from "../evaluators/questions.js";
import { profileQuestionSet, type QuestionsOrigin } from "../evaluators/question-set.js";
import { verdictFields } from "../domain/verdict-basis.js";
import { contextJudgeNote } from "../domain/context-judge-note.js";
import { buildAnswerPrompt, ANSWER_SYSTEM_PROMPT } from "../generators/prompt.js";
import { costOf, REFERENCE_CHAT_MODEL, REFERENCE_EMBEDDING_MODEL, referenceCost } from "../generators/pricing.js";
import { retrieve } from "../retrieval/retrieve.js";
import { countTokens } from "../text/tokens.js";
import type { ServiceContext } from "./context.js";
import { requireDocument } from "./documents.js";
import { collectionDocuments, corpusOf, requireCollection, type Corpus, type CorpusTarget } from "./collections.js";
import { estimateIfLong } from "./long-run-estimate.js";
import { inProcessUnits, UnitFailure, type ProcessingUnit, type ProcessingUnits } from "./processing-units.js";
import { embedderOf, planVariants, variantSearchPlan, type StrategyVariant, type VariantPlan } from "./variants.js";
import { distinctIndexes, DRY_RUN_LABEL, estimateRun, isIndexCurrent } from "./cost-model.js";
import { mapWithConcurrency, yieldToEventLoop } from "../domain/concurrency.js";
import type { SearchMode } from "../domain/variant-key.js";
import type { SearchPlan } from "../domain/default-search-mode.js";
import type { Embedder } from "../embedders/embedder.js";
import type { Generator } from "../generators/generator.js";
import type { Judge } from "../domain/judge.js";
import type { StrategyState } from "../domain/ports/chunks.js";
import type { CachedEmbedder } from "../embedders/cache.js";
import type { ChunksImport, ImportPlacement } from "../strategies/imported-chunks.js";
import { withImportedChunks } from "./imported-chunks.js";
import { locateOffThread } from "./locate-off-thread.js";
import { emptyResult } from "../domain/question-result.js";
import { chunkHealthOfRun } from "./chunk-health.js";

/**
 * `document`: an existing document id, or a file to upload (reused if the same bytes were
 * uploaded before). Or `collection` by id or name, searched as one: each question ranks the
 * chunks of all its documents together; with `add`, the files are uploaded (or reused) and
 * added first, and the collection is created if it does not exist.
 */
export interface BenchInput extends RunOptions, CorpusTarget {
  questions: QuestionInput[];
  /** Where the questions came from, for the report and error messages. */
  questionsSource: string;
  /** The generator the questions file records (`questions generate` metadata), for the verdict's basis; absent: none recorded. */
  questionsOrigin?: QuestionsOrigin | null;
  /** Names and variants (`recursive@chunk_size=128`), or `all`; docs/benchmarks.md "Variants and sweeps". */
  strategies?: string | string[];
  /** Sweep shorthands, each expanding to a grid of variants: `recursive:chunk_size=128,256`. */
  sweep?: string[];
  /** One top-k, or several to run every variant at each. */
  topK?: number | number[];
  /** Search modes to run every variant under (`--retrievers dense,keyword,hybrid`); the verdict says whether it holds under each. */
  retrievers?: SearchMode[];
  /** Embedders to run every variant with (`--embedders use,hash`); the verdict says whether it holds with each. */
  embedders?: string[];
  /** Refuse a grid of more variants than this (default: the configuration's max_sweep_variants). */
  maxVariants?: number;
  dryRun?: boolean;
  /** Stop after this many failed questions (all strategies together). */
  maxErrors?: number;
  judge?: string;
  weights?: Record<string, number>;
  /**
   * Chunks a user's own pipeline made (docs/strategies.md "Your own chunks"), each benchmarked for this run as
   * a strategy named after it, beside `strategies`.
   */
  chunks?: ChunksImport[];
  /** Labels stored with the experiment (git commit, branch, pull request), shown in reports. */
  tags?: Record<string, string>;
  /** Where the processing units run (a background benchmark on PostgreSQL: the shared queue); default this process. */
  units?: ProcessingUnits;
  /**
   * A run expected to take longer than this many seconds reports its estimate before any work, as
   * an `estimate` progress event (the CLI prints it); absent, no estimate is made.
   */
  announceEstimateAbove?: number;
  /**
   * The gates the caller checks on the finished run (bench's CI options), given the experiment
   * and its per-question results before they are stored: the outcomes are stored with it
   * (`details.gates`), so `report` says them first later too.
   */
  checkGates?: (experiment: ExperimentRecord, results: Record<string, QuestionResult[]>) => GateOutcome[];
}

/** Indexing figures of one strategy, with the LLM usage its contextualisation spent in this run. */
type IndexingRun = StrategyIndexing & { contextUsage: TokenUsage };

/**
 * Processes, for every document, the variants whose index is missing or was made with other
 * options or another embedder: each such (document, variant) pair is a unit `units` runs (in
 * this process, or as queue jobs other workers share). Each unit is metered on its own, so a
 * variant's cost is what it spent, whatever runs beside it; its figures add up over the documents.
 */
async function ensureProcessed(
  ctx: ServiceContext,
  documents: StoredDocument[],
  variants: StrategyVariant[],
  embedderFor: (variant: StrategyVariant) => CachedEmbedder,
  options: RunOptions,
  units: ProcessingUnits,
): Promise<IndexingRun[]> {
  const indexes = distinctIndexes(variants);
  const pending: ProcessingUnit[] = [];
  for (const variant of indexes)
    for (const [n, document] of documents.entries()) {
      if (await isIndexCurrent(ctx, document, variant)) continue;
      pending.push({ document, variant, ...(documents.length > 1 ? { label: `document ${n + 1} of ${documents.length} (${document.filename})` } : {}) });
    }
  const outcomes = await units.run(pending, embedderFor, options).catch((error: unknown) => {
    if (!(error instanceof UnitFailure)) throw error;
    const unit = pending[error.index]!;
    const where = documents.length > 1 ? ` for ${unit.document.filename}` : "";
    throw new BenchmarkError(`processing ${unit.variant.indexKey}${where} failed: ${error.reason}`);
  });
  return mapWithConcurrency(indexes, 1, async (variant): Promise<IndexingRun> => {
    const own = outcomes.filter((_, i) => pending[i]!.variant === variant);
    const tokenSizes: number[] = [];
    for (const document of documents)
      for (const c of await ctx.chunks.current(document.id, variant.indexKey)) if (c.role === "chunk") tokenSizes.push(c.tokenCount);
    const contextUsage = own.reduce((u, o) => addUsage(u, o.contextUsage), ZERO_USAGE);
    const embeddedTokens = own.reduce((n, o) => n + o.embedded.computedTokens, 0);
    return {
      strategy: variant.indexKey,
      chunks: tokenSizes.length,
      seconds: own.reduce((n, o) => n + o.seconds, 0),
      embeddedTokens,
      costUsd:
        costOf(embedderFor(variant).name, { promptTokens: embeddedTokens, completionTokens: 0, totalTokens: embeddedTokens }) +
        costOf(ctx.config.generator, contextUsage),
      tokenSizes,
      reused: own.length === 0,
      contextTokens: contextUsage.totalTokens,
      contextUsage,
    };
  });
}

/**
 * The text the judge measures relevance against: the documents the question's references are
 * in (for a single document, the document), else those the answer's context came from.
 */
function judgedText(q: Question, retrieved: Array<{ documentId: string }>, textOf: Map<string, string>): string {
  const from = q.references.length > 0 ? q.references.map((r) => r.documentId) : retrieved.map((c) => c.documentId);
  const ids = [...new Set(from)];
  return ids.length === 0 ? [...textOf.values()].join("\n\n") : ids.map((id) => textOf.get(id)!).join("\n\n");
}

/**
 * The spans a strategy can return for a question (for parent-child strategies, the parents):
 * Precision_Ω's chunks, over every document searched, on the corpus axis.
 */
async function retrievableSpans(ctx: ServiceContext, documents: StoredDocument[], strategy: string, axis: CorpusOffsets) {
  const spans = await mapWithConcurrency(documents, 1, async (document) => {
    const stored = await ctx.chunks.current(document.id, strategy);
    const role = stored.some((c) => c.role === "parent") ? "parent" : "chunk";
    return stored.filter((c) => c.role === role).map((c) => axis.place(document.id, c));
  });
  return spans.flat();
}

/** One variant as the question loop runs it: its indexes in every document, and how it searches. */
interface VariantRun {
  variant: StrategyVariant;
  /** The embedder it searches with (its `@embedder=`, else the run's). */
  embedder: string;
  states: StrategyState[];
  search: SearchPlan;
  topK: number;
  /** Its retrievable spans on the corpus axis (Precision_Ω). */
  units: Awaited<ReturnType<typeof retrievableSpans>>;
}

/** What the strategies share: each question's vector per embedder (or why it could not be embedded), and the time that took. */
interface SharedWork {
  vectors: Map<string, Array<Float32Array | Error>>;
  seconds: SharedSeconds;
}

/**
 * Work every strategy shares, done and timed once before any question is timed, so that none of
 * them is charged for it (it used to fall on whichever strategy ran first): the questions are
 * embedded once per embedder, in one call (every dense or hybrid search with it uses the same vector of a question),
 * and each variant searches once untimed for the first question (opening the vector table,
 * loading models, compiling the search code), answered once when the generator is local (a
 * hosted model would bill the call, and its cached reply would make the timed answer a cache hit).
 */
async function sharedWork(
  deps: Parameters<typeof retrieve>[0],
  embedders: Map<string, CachedEmbedder>,
  runs: VariantRun[],
  questions: Question[],
  generator: Generator | null,
  signal: AbortSignal | undefined,
): Promise<SharedWork> {
  const started = performance.now();
  const texts = questions.map((q) => q.question);
  const vectors = new Map<string, Array<Float32Array | Error>>();
  for (const run of runs) {
    if (run.search.mode === "keyword" || vectors.has(run.embedder)) continue;
    vectors.set(run.embedder, await embedEach(embedders.get(run.embedder)!, texts, signal));
  }
  const embedded = performance.now();
  for (const run of runs) {
    throwIfCancelled(signal);
    try {
      const retrieval = await retrieve(deps, run.states, texts[0]!, run.topK, signal, run.search, questionVector({ vectors }, run, 0));
      if (generator && !generator.isLlm) await generator.answer(texts[0]!, retrieval.chunks, signal);
    } catch (error) {
      // The timed run meets the same failure and records it against its question.
      if (error instanceof CancelledError) throw error;
    }
  }
  const warmedUp = performance.now();
  return {
    vectors,
    seconds: {
      questionEmbedding: (embedded - started) / 1000,
      questionsEmbedded: [...vectors.values()].reduce((n, list) => n + list.filter((v) => !(v instanceof Error)).length, 0),
      warmUp: (warmedUp - embedded) / 1000,
    },
  };
}

/** Each text's vector, or the error embedding it met: a failure is its question's, not the run's. */
async function embedEach(embedder: Embedder, texts: string[], signal: AbortSignal | undefined): Promise<Array<Float32Array | Error>> {
  try {
    return await embedder.embed(texts, signal);
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    // One call failed for all: each text on its own, so that only the ones that fail are lost.
    const vectors: Array<Float32Array | Error> = [];
    for (const text of texts) {
      vectors.push(
        await embedder.embed([text], signal).then(
          ([v]) => v!,
          (e: unknown) => {
            if (e instanceof CancelledError) throw e;
            return e instanceof Error ? e : new Error(String(e));
          },
        ),
      );
    }
    return vectors;
  }
}

/** The shared vector of question `i` for a variant's search (none for keyword search); throws the error embedding it met. */
function questionVector(shared: Pick<SharedWork, "vectors">, run: VariantRun, i: number): Float32Array | undefined {
  const vector = run.search.mode === "keyword" ? undefined : shared.vectors.get(run.embedder)?.[i];
  if (vector instanceof Error) throw vector;
  return vector;
}

/**
 * The checks a benchmark request passes before any work starts: a background request runs
 * them before its 202, so it is refused exactly as the synchronous one would be.
 */
export async function checkBenchInput(ctx: ServiceContext, input: BenchInput): Promise<VariantPlan> {
  return checkPlannedInput(withImportedChunks(ctx, input), input);
}

/**
 * The variant keys a bench would compare, with an unknown strategy refused as invalid input
 * (a ValidationError) rather than as a benchmark that cannot run: the CLI checks its
 * `--strategies` with this before it reads or uploads anything (docs/cli.md "Exit codes").
 */
export async function planBenchVariants(
  ctx: ServiceContext,
  input: Pick<BenchInput, "strategies" | "sweep" | "topK" | "chunks" | "maxVariants" | "retrievers" | "embedders">,
): Promise<string[]> {
  const run = withImportedChunks(ctx, input);
  const plan = await planVariants(run.ctx, { ...variantPlanInput(input), strategies: run.strategies });
  return plan.variants.map((v) => v.key);
}

/** What planVariants reads of a benchmark's input (the strategies come from withImportedChunks). */
const variantPlanInput = (input: Pick<BenchInput, "sweep" | "topK" | "maxVariants" | "retrievers" | "embedders">) => ({
  sweep: input.sweep,
  topK: input.topK,
  maxVariants: input.maxVariants,
  retrievers: input.retrievers,
  embedders: input.embedders,
});

/** `checkBenchInput` in the run's context (imported chunks registered): what `runBenchmark` plans with. */
async function checkPlannedInput(run: ReturnType<typeof withImportedChunks>, input: BenchInput): Promise<VariantPlan> {
  const { ctx } = run;
  const plan = await planVariants(ctx, { ...variantPlanInput(input), strategies: run.strategies }, BenchmarkError);
  if (input.questions.length === 0) throw new BenchmarkError("the benchmark has no questions");
  if (input.maxErrors !== undefined && (!Number.isInteger(input.maxErrors) || input.maxErrors < 1))
    throw new ValidationError("max_errors must be a whole number >= 1");
  if (!input.document === !input.collection) throw new ValidationError("a benchmark takes one document or one collection");
  // Documents already stored are checked now (questions, imported chunks); uploads once they are read, still before any processing.
  const known =
    input.document && "id" in input.document
      ? [await requireDocument(ctx, input.document.id)]
      : input.collection && !input.collection.add
        ? await collectionDocuments(ctx, await requireCollection(ctx, input.collection.name))
        : null;
  if (known) await locateOffThread(input.questionsSource, input.questions, input.chunks, known);
  return plan;
}

/** Runs a check of a run's input against its corpus; when it throws, what resolving the corpus stored is taken back. */
async function refusedBeforeWork<T>(corpus: Corpus, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    // The refusal is what the caller must see, whatever taking back meets.
    await corpus.undo().catch(() => undefined);
    throw error;
  }
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/**
 * Which document a question belongs to in a collection's per-document breakdown: the one
 * every reference lies in, or null when they span several documents or there are none.
 */
function questionDocument(q: Question): string | null {
  const ids = new Set(q.references.map((r) => r.documentId));
  return ids.size === 1 ? [...ids][0]! : null;
}

/**
 * Every strategy's metrics per document of a collection, over the questions whose references
 * lie in that document, with their intervals and the strategy that wins there. Questions whose
 * references span documents (or that have none) form groups of their own.
 */
async function perDocumentBreakdown(
  corpus: Corpus,
  questions: Question[],
  results: Record<string, QuestionResult[]>,
  scoringOf: (strategy: string) => Omit<AggregateOptions, "costUsd">,
  scoring: Omit<AggregateOptions, "costUsd">,
  input: Pick<BenchInput, "signal" | "onProgress">,
): Promise<DocumentBreakdown[]> {
  const { signal } = input;
  const groups = new Map<string | null, number[]>();
  questions.forEach((q, i) => {
    const key = q.references.length === 0 ? "(none)" : questionDocument(q);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const order = [...corpus.documents.map((d) => d.id as string | null), null, "(none)"];
  const breakdown: DocumentBreakdown[] = [];
  const present = order.filter((key) => groups.has(key));
  for (const key of order) {
    const indices = groups.get(key);
    if (!indices) continue;
    const filename = key === null ? "(several documents)" : key === "(none)" ? "(no references)" : corpus.documents.find((d) => d.id === key)!.filename;
    input.onProgress?.({ stage: "score", message: `per document: ${filename}`, done: breakdown.length, total: present.length });
    const groupResults = Object.fromEntries(Object.entries(results).map(([strategy, list]) => [strategy, indices.flatMap((i) => (list[i] ? [list[i]!] : []))]));
    const aggregateMetrics: Record<string, AggregateMetrics> = {};
    for (const [strategy, list] of Object.entries(groupResults)) {
      await yieldToEventLoop();
      throwIfCancelled(signal);
      aggregateMetrics[strategy] = aggregate(list, { ...scoringOf(strategy), costUsd: 0 });
    }
    const highest = bestStrategy(aggregateMetrics);
    breakdown.push({
      documentId: key === "(none)" ? null : key,
      filename,
      questions: indices.length,
      aggregateMetrics,
      bestStrategy: highest,
      winner: await groupWinner(groupResults, highest, scoring, () => throwIfCancelled(signal)),
    });
  }
  input.onProgress?.({ stage: "score", message: "per document: done", done: present.length, total: present.length });
  return breakdown;
}

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
  const gates = input.checkGates?.(record, answered.results) ?? [];
  if (gates.length > 0) record.details.gates = gates;
  // Ctrl-C during the scoring: nothing is stored (the run was not finished, as far as its user is concerned).
  throwIfCancelled(input.signal);
  await plan.ctx.experiments.insert(record, answered.results);
  const total = plan.variants.length * plan.questions.length;
  input.onProgress?.({ stage: "bench", message: "done", done: total, total });
  return record;
}

/** What planning settles before any work: the variants, the corpus and its questions, and this run's metered embedder. */
interface BenchPlan {
  ctx: ServiceContext;
  variants: StrategyVariant[];
  topK: number;
  dryRun: boolean;
  corpus: Corpus;
  questions: Question[];
  /** Per imported chunks' name, how its chunks were placed in the documents (docs/strategies.md "Your own chunks"). */
  chunksLocated: Record<string, ImportPlacement["located"]>;
  textOf: Map<string, string>;
  axis: CorpusOffsets;
  sharedEmbedder: CachedEmbedder;
  /** The configured embedder, metered for this run (the judge's, and every variant's without its own). */
  embedder: CachedEmbedder;
  /** Every embedder the run's variants use, by spec, metered for this run (the configured one included). */
  embedders: Map<string, CachedEmbedder>;
}

/** Stage 1: the variants to compare, the corpus (uploads stored), the questions resolved against it. */
async function planRun(shared: ServiceContext, input: BenchInput): Promise<BenchPlan> {
  const run = withImportedChunks(shared, input);
  const { ctx } = run;
  const { variants, topK } = await checkPlannedInput(run, input);
  const corpus = await corpusOf(ctx, input, input);
  const { documents } = corpus;
  // Refused here, before any work, the run takes back what it stored: its uploads, a new collection.
  const { questions, chunksLocated } = await refusedBeforeWork(corpus, () => locateOffThread(input.questionsSource, input.questions, input.chunks, documents));
  const sharedEmbedder = await ctx.embedder();
  // This run's embeddings, counted apart from any other run sharing the embedder.
  const embedders = new Map<string, CachedEmbedder>([[ctx.config.embedder, sharedEmbedder.metered()]]);
  for (const spec of new Set(variants.map((v) => embedderOf(ctx, v)))) if (!embedders.has(spec)) embedders.set(spec, (await ctx.embedder(spec)).metered());
  return {
    ctx,
    variants,
    topK,
    dryRun: input.dryRun ?? false,
    corpus,
    questions,
    chunksLocated,
    textOf: new Map(documents.map((d) => [d.id, d.text])),
    axis: new CorpusOffsets(documents),
    sharedEmbedder,
    embedder: embedders.get(ctx.config.embedder)!,
    embedders,
  };
}

/** Before any work, the estimate of a run expected to be long (`announceEstimateAbove`), as a progress event. */
async function announceEstimate(plan: BenchPlan, input: BenchInput): Promise<void> {
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

/** Stage 2: every variant's index built (or reused) in every document, timed. */
async function indexVariants(plan: BenchPlan, input: BenchInput): Promise<{ indexing: IndexingRun[]; seconds: number }> {
  const started = performance.now();
  // Imported chunks exist only in this run's input (and its strategy registry): no other process could build them.
  const units = input.units && !input.chunks?.length ? input.units : inProcessUnits(plan.ctx);
  const embedderFor = (variant: StrategyVariant) => plan.embedders.get(embedderOf(plan.ctx, variant))!;
  const indexing = await ensureProcessed(plan.ctx, plan.corpus.documents, plan.variants, embedderFor, input, units);
  return { indexing, seconds: (performance.now() - started) / 1000 };
}

/** The generator and judge a run answers with (none in a dry run), and the names the experiment records. */
interface AnswerModels {
  generator: Generator | null;
  judge: Judge | null;
  generatorSpec: string;
  judgeSpec: string;
}

async function answerModels(plan: BenchPlan, input: BenchInput): Promise<AnswerModels> {
  const generator = plan.dryRun ? null : await plan.ctx.generator();
  const judge = plan.dryRun ? null : await plan.ctx.judge(input.judge);
  return { generator, judge, generatorSpec: plan.ctx.config.generator, judgeSpec: judge ? judge.name : DRY_RUN_LABEL };
}

/** What running the questions produced: every variant's results in question order, and what the run shared. */
interface AnsweredRun {
  runs: VariantRun[];
  results: Record<string, QuestionResult[]>;
  sharedByAll: SharedWork;
  stoppedEarly: string | null;
  /** The answer prompts a dry run built, in tokens (for the full run's estimate). */
  dryRunPromptTokens: number;
}

/** Stage 3: every question against every variant, interleaved, up to `maxErrors` failures. */
async function runQuestions(plan: BenchPlan, input: BenchInput, models: AnswerModels): Promise<AnsweredRun> {
  const { questions } = plan;
  const runs = await mapWithConcurrency(plan.variants, 1, (variant) => variantRun(plan, variant));
  const deps = { vectors: await plan.ctx.vectors(), chunks: plan.ctx.chunks, embedder: plan.embedder };
  const sharedByAll = await sharedWork(deps, plan.embedders, runs, questions, models.generator, input.signal);
  const results: Record<string, QuestionResult[]> = Object.fromEntries(runs.map((run) => [run.variant.key, []]));
  let failures = 0;
  let stoppedEarly: string | null = null;
  let dryRunPromptTokens = 0;
  for (const [i, q] of questions.entries()) {
    if (stoppedEarly) break;
    // Every strategy answers a question before any answers the next, starting one further along
    // each time: whatever slows the machine for a while, or speeds it up as it warms, falls on
    // every strategy alike rather than on whichever runs first.
    for (let k = 0; k < runs.length; k++) {
      if (stoppedEarly) break;
      const run = runs[(i + k) % runs.length]!;
      const strategy = run.variant.key;
      // A question run may finish without waiting on anything (cached vectors, keyword search, the
      // extractive generator): the event loop gets its turn here, so Ctrl-C is heard at once.
      await yieldToEventLoop();
      throwIfCancelled(input.signal);
      input.onProgress?.({ stage: "answer", strategy, message: `question ${i + 1}/${questions.length}`, done: i, total: questions.length });
      const asked = await answerQuestion(plan, input, models, { deps, run, sharedByAll }, q, i);
      dryRunPromptTokens += asked.promptTokens;
      if (asked.result.error !== null) {
        failures++;
        if (input.maxErrors !== undefined && failures >= input.maxErrors)
          stoppedEarly = `stopped after ${failures} failed question(s) (--max-errors ${input.maxErrors})`;
      }
      results[strategy]!.push(asked.result);
    }
  }
  for (const run of runs) {
    const answered = results[run.variant.key]!.length;
    input.onProgress?.({ stage: "answer", strategy: run.variant.key, message: `${answered} questions answered`, done: answered, total: answered });
  }
  return { runs, results, sharedByAll, stoppedEarly, dryRunPromptTokens };
}

/** A variant as the question loop runs it: its index in every document, its search mode and depth, its retrievable spans. */
async function variantRun(plan: BenchPlan, variant: StrategyVariant): Promise<VariantRun> {
  const { ctx, corpus } = plan;
  const states = await mapWithConcurrency(corpus.documents, 1, async (d) => {
    const state = await ctx.chunks.state(d.id, variant.indexKey);
    // Deleted (by another process) since it was processed: the run cannot score this variant.
    if (!state) throw new BenchmarkError(`${d.filename} (${d.id}) was deleted or lost its ${variant.indexKey} chunks during the benchmark; run it again`);
    return state;
  });
  return {
    variant,
    embedder: embedderOf(ctx, variant),
    states,
    search: variantSearchPlan(ctx, variant),
    topK: variant.topK ?? plan.topK,
    units: await retrievableSpans(ctx, corpus.documents, variant.indexKey, plan.axis),
  };
}

/** Where one question is asked: the retrieval dependencies, the variant, and the work every variant shares. */
interface AskedOf {
  deps: Parameters<typeof retrieve>[0];
  run: VariantRun;
  sharedByAll: SharedWork;
}

/**
 * One question against one variant: retrieval and its metrics, then (unless a dry run) the
 * answer and the judge's scores. A failure is recorded in the result, never thrown (except a cancellation).
 */
async function answerQuestion(
  plan: BenchPlan,
  input: BenchInput,
  models: AnswerModels,
  { deps, run, sharedByAll }: AskedOf,
  q: Question,
  i: number,
): Promise<{ result: QuestionResult; promptTokens: number }> {
  const { axis } = plan;
  const result = emptyResult(q);
  let promptTokens = 0;
  try {
    const t0 = performance.now();
    // One retrieval as deep as the deepest cut; the answer reads its first top_k (retrieve.ts keeps that prefix the same as a top_k search).
    const ranking = await retrieve(deps, run.states, q.question, rankingDepth(run.topK), input.signal, run.search, questionVector(sharedByAll, run, i));
    const retrieval = { ...ranking, chunks: ranking.chunks.slice(0, run.topK) };
    result.stageSeconds.retrieval = (performance.now() - t0) / 1000;
    result.retrievedTokens = retrieval.chunks.reduce((n, c) => n + countTokens(c.text), 0);
    result.retrieved = retrieval.chunks.map((c) => ({
      chunkId: c.chunkId,
      documentId: c.documentId,
      score: c.score,
      start: c.start,
      end: c.end,
      text: c.text,
      parentId: c.parentId,
    }));
    result.latency = {
      embedSeconds: retrieval.embedSeconds,
      searchSeconds: retrieval.searchSeconds,
      answerSeconds: 0,
      totalSeconds: retrieval.embedSeconds + retrieval.searchSeconds,
    };
    const evaluation: RetrievedQuestion = {
      question: q.question,
      expectedAnswer: q.expectedAnswer,
      answerable: q.answerable !== false,
      references: q.references.map((r) => axis.place(r.documentId, r)),
      retrieved: retrieval.chunks.map((c) => axis.place(c.documentId, c)),
      retrievable: run.units,
      corpusLength: axis.totalLength,
    };
    await scoreRetrieval(result.metrics, evaluation);
    if (q.references.length > 0) {
      result.rankCuts = rankCuts(
        evaluation.references,
        ranking.chunks.map((c) => axis.place(c.documentId, c)),
        run.units,
      );
    }
    if (plan.dryRun) {
      promptTokens = countTokens(ANSWER_SYSTEM_PROMPT) + countTokens(buildAnswerPrompt(q.question, retrieval.chunks));
    } else {
      const generator = models.generator!;
      const t1 = performance.now();
      const generation = await generator.answer(q.question, retrieval.chunks, input.signal);
      result.stageSeconds.generation = (performance.now() - t1) / 1000;
      result.answer = generation.answer;
      result.answered = generation.answered;
      result.answerTokens = generation.usage;
      result.latency.answerSeconds = result.stageSeconds.generation;
      result.latency.totalSeconds += result.stageSeconds.generation;
      const t2 = performance.now();
      const verdict = await models.judge!.judge(
        {
          question: q.question,
          answer: generation.answer,
          answered: generation.answered,
          measureFaithfulness: generator.isLlm,
          contexts: retrieval.chunks.map((c) => c.text),
          retrieval: run.search.mode,
          ...(run.variant.embedder ? { retrieverEmbedder: run.variant.embedder } : {}),
          document: judgedText(q, retrieval.chunks, plan.textOf),
          target: judgeTarget(q),
        },
        input.signal,
      );
      result.stageSeconds.judging = (performance.now() - t2) / 1000;
      result.judgeTokens = verdict.usage;
      await scoreAnswer(result.metrics, { ...evaluation, answer: generation.answer, answered: generation.answered, verdict });
    }
  } catch (error) {
    // Cancelled, or out of the request's chat calls: the run stops (every question after would fail alike).
    if (error instanceof CancelledError || error instanceof LlmCallLimitError) throw error;
    result.error = describeError(error);
  }
  return { result, promptTokens };
}

/** Every strategy's aggregate metrics, the best of them and the comparisons with it, and the scoring they used. */
interface ScoredRun {
  aggregates: Record<string, AggregateMetrics>;
  best: string;
  comparisons: Experiment["comparisons"];
  scoring: Omit<AggregateOptions, "costUsd">;
  scoringOf: (strategy: string) => Omit<AggregateOptions, "costUsd">;
  /** Why a metric measured for some strategies only left every composite, when one did. */
  compositeNote: string | null;
}

/** Stage 4: aggregate each strategy's results (with its cost), pick the best, compare the others with it. */
async function scoreStrategies(plan: BenchPlan, input: BenchInput, models: AnswerModels, answered: AnsweredRun, indexing: IndexingRun[]): Promise<ScoredRun> {
  const { variants } = plan;
  const { results, runs } = answered;
  const weights = input.weights ?? plan.ctx.config.weights ?? defaultWeights();
  const gaps = strategyGaps(
    runs.map((r) => ({
      key: r.variant.key,
      judge: models.judge,
      retrieval: r.search.mode,
      ...(r.variant.embedder ? { retrieverEmbedder: r.variant.embedder } : {}),
    })),
  );
  const scoring = {
    weights: gaps.leftOut.length === 0 ? weights : { ...weights, ...Object.fromEntries(gaps.leftOut.map((w) => [w, 0])) },
    hallucinationThreshold: DEFAULTS.hallucinationThreshold,
    unmeasurable: unmeasurableMetrics(plan.dryRun, models.generator),
  };
  const scoringOf = (strategy: string) => {
    const reasons = gaps.reasons[strategy]!;
    return Object.keys(reasons).length === 0 ? scoring : { ...scoring, unmeasurable: { ...reasons, ...scoring.unmeasurable } };
  };
  const compositeNote = gaps.notes.length === 0 ? null : gaps.notes.join(" ");
  const aggregates: Record<string, AggregateMetrics> = {};
  for (const [k, { key: s, indexKey }] of variants.entries()) {
    await yieldToEventLoop();
    throwIfCancelled(input.signal);
    // One count over the scoring's steps: each strategy's means, then the comparisons.
    input.onProgress?.({ stage: "score", message: `means and intervals of ${s}`, done: k, total: variants.length + 1 });
    const list = results[s]!;
    const idx = indexing.find((x) => x.strategy === indexKey)!;
    const strategyCost =
      costOf(
        models.generatorSpec,
        list.reduce((u, r) => addUsage(u, r.answerTokens), ZERO_USAGE),
      ) +
      (plan.dryRun
        ? 0
        : costOf(
            models.judgeSpec,
            list.reduce((u, r) => addUsage(u, r.judgeTokens), ZERO_USAGE),
          )) +
      idx.costUsd;
    aggregates[s] = aggregate(list, { ...scoringOf(s), costUsd: strategyCost });
  }
  const best = bestStrategy(aggregates);
  input.onProgress?.({ stage: "score", message: `comparing every strategy with ${best}`, done: variants.length, total: variants.length + 1 });
  const comparisons = await compareWithBestInTurns(results, best, scoring, () => throwIfCancelled(input.signal));
  input.onProgress?.({ stage: "score", message: "strategies scored", done: variants.length + 1, total: variants.length + 1 });
  return { aggregates, best, comparisons, scoring, scoringOf, compositeNote };
}

/** What the run spent, by part, with the same work priced at the reference models. */
function runCost(plan: BenchPlan, models: AnswerModels, results: Record<string, QuestionResult[]>, indexing: IndexingRun[]): ExperimentDetails["cost"] {
  const all = Object.values(results).flat();
  const answerUsage = all.reduce((u, r) => addUsage(u, r.answerTokens), ZERO_USAGE);
  const judgeUsage = all.reduce((u, r) => addUsage(u, r.judgeTokens), ZERO_USAGE);
  const contextUsage = indexing.reduce((u, x) => addUsage(u, x.contextUsage), ZERO_USAGE);
  const embedded = [...plan.embedders.values()];
  const tokensUsage = (tokens: number) => ({ promptTokens: tokens, completionTokens: 0, totalTokens: tokens });
  const embeddingUsage = tokensUsage(embedded.reduce((n, e) => n + e.stats.computedTokens, 0));
  return {
    answersUsd: costOf(models.generatorSpec, answerUsage),
    judgingUsd: plan.dryRun ? 0 : costOf(models.judgeSpec, judgeUsage),
    embeddingsUsd: embedded.reduce((usd, e) => usd + costOf(e.name, tokensUsage(e.stats.computedTokens)), 0),
    contextualisationUsd: costOf(models.generatorSpec, contextUsage),
    referenceModel: `${REFERENCE_CHAT_MODEL} + ${REFERENCE_EMBEDDING_MODEL}`,
    referenceUsd:
      referenceCost(REFERENCE_CHAT_MODEL, addUsage(addUsage(answerUsage, judgeUsage), contextUsage)) + referenceCost(REFERENCE_EMBEDDING_MODEL, embeddingUsage),
  };
}

/**
 * The full run a dry run stands in for, started now (the indexes it built are kept), by the
 * cost model the sweep estimate uses, with the exact answer prompts the dry run built.
 */
async function estimateFullRun(plan: BenchPlan, answerPromptTokens: number): Promise<ExperimentDetails["fullRunEstimate"]> {
  const full = await estimateRun(plan.ctx, plan.sharedEmbedder, {
    documents: plan.corpus.documents,
    variants: plan.variants,
    topK: plan.topK,
    questions: plan.questions,
    dryRun: false,
    answerPromptTokens,
  });
  return { costUsd: full.costUsd, seconds: full.seconds, referenceUsd: full.referenceUsd, includes: full.includes, time: full.time };
}

/** Stage 5: the experiment record: the verdict and its basis over the scored strategies, and the run's details. */
async function assembleExperiment(
  plan: BenchPlan,
  input: BenchInput,
  models: AnswerModels,
  indexed: { indexing: IndexingRun[]; seconds: number },
  answered: AnsweredRun,
  scored: ScoredRun,
  fullRunEstimate: ExperimentDetails["fullRunEstimate"],
): Promise<ExperimentRecord> {
  const { ctx, corpus, variants, questions, topK, dryRun, embedder } = plan;
  const { documents } = corpus;
  const { results, sharedByAll } = answered;
  const { aggregates, best, comparisons } = scored;
  const { indexing } = indexed;
  const strategies = variants.map((v) => v.key);
  const cost = runCost(plan, models, results, indexing);
  const sumStage = (k: keyof QuestionResult["stageSeconds"]) =>
    Object.values(results)
      .flat()
      .reduce((n, r) => n + r.stageSeconds[k], 0);
  const search: NonNullable<ExperimentDetails["search"]> = Object.fromEntries(
    variants.map((v) => [v.key, { retrieval: variantSearchPlan(ctx, v).mode, topK: v.topK ?? topK, ...(v.embedder ? { embedder: v.embedder } : {}) }]),
  );
  const chunking = await chunkHealthOfRun(ctx, documents, variants, topK);
  const afterTurn = () => throwIfCancelled(input.signal);
  const byRetriever = await outcomesByRetriever(results, aggregates, search, scored.scoring, afterTurn);
  const embedderNames = [...plan.embedders.keys()];
  const byEmbedder = await outcomesAcross(
    EMBEDDER_AXIS,
    embedderNames,
    results,
    aggregates,
    (v) => search[v]?.embedder ?? ctx.config.embedder,
    scored.scoring,
    afterTurn,
  );
  const experiment: Experiment = {
    experimentId: newId("exp"),
    documentId: corpus.collection?.id ?? documents[0]!.id,
    collection: corpus.collection && { id: corpus.collection.id, name: corpus.collection.name, documents: corpus.collection.documents },
    perDocument: corpus.collection && (await perDocumentBreakdown(corpus, questions, results, scored.scoringOf, scored.scoring, input)),
    strategiesUsed: strategies,
    questionsCount: questions.length,
    aggregateMetrics: aggregates,
    bestStrategy: best,
    totalLatencySeconds:
      Object.values(aggregates).reduce((n, a) => n + a.totalLatencySeconds, 0) + sharedByAll.seconds.questionEmbedding + sharedByAll.seconds.warmUp,
    estimatedCostUsd: cost.answersUsd + cost.judgingUsd + cost.embeddingsUsd + cost.contextualisationUsd,
    createdAt: nowTimestamp(),
    verdict: [verdictSentence(best, aggregates[best]!.compositeScore, comparisons), retrievedTokensTradeOff(best, results, aggregates)]
      .filter(Boolean)
      .join(" "),
    comparisons,
    ...withNotes(
      verdictFields(best, comparisons, aggregates, search, profileQuestionSet(input.questions, input.questionsOrigin), chunking.cannotTellApart),
      scored.compositeNote,
      models.judge && contextJudgeNote(search, (mode, embedder) => models.judge!.contextRelevanceJudgedBy(mode, embedder)),
      byRetriever && retrieverAgreementNote(byRetriever),
      byEmbedder && agreementNote(EMBEDDER_AXIS, byEmbedder),
      byEmbedder && embeddersUnderKeywordNote(byEmbedder, search),
    ),
    tags: input.tags ?? {},
  };
  const negativeControls = negativeControlCounts(results, dryRun);
  const details: ExperimentDetails = {
    ...(corpus.collection ? {} : { documentName: documents[0]!.filename }),
    questionsSource: input.questionsSource,
    topK,
    dryRun,
    embedder: embedder.name,
    generator: dryRun ? DRY_RUN_LABEL : models.generatorSpec,
    judge: models.judgeSpec,
    strategyOptions: Object.fromEntries(
      [...strategies, ...indexing.map((x) => x.strategy)].map((s) => [s, variants.find((v) => v.key === s || v.indexKey === s)!.options]),
    ),
    search,
    weights: scored.scoring.weights,
    hallucinationThreshold: DEFAULTS.hallucinationThreshold,
    statistics: {
      method: "percentile bootstrap over questions (paired for comparisons)",
      resamples: BOOTSTRAP_RESAMPLES,
      confidenceLevel: CONFIDENCE_LEVEL,
      seed: BOOTSTRAP_SEED,
    },
    indexing: indexing.map(({ contextUsage: _usage, ...figures }) => figures),
    cost,
    fullRunEstimate,
    stageSeconds: { processing: indexed.seconds, retrieval: sumStage("retrieval"), generation: sumStage("generation"), judging: sumStage("judging") },
    sharedSeconds: sharedByAll.seconds,
    embeddings: {
      computed: [...plan.embedders.values()].reduce((n, e) => n + e.stats.computed, 0),
      cached: [...plan.embedders.values()].reduce((n, e) => n + e.stats.cached, 0),
    },
    referencesLocated: countBy(questions.flatMap((q) => q.references.map((r) => r.located))),
    ...chunking.figures,
    ...(Object.keys(plan.chunksLocated).length > 0
      ? { chunksLocated: plan.chunksLocated, chunkWarnings: [...chunking.figures.chunkWarnings, ...approximateChunkWarnings(plan.chunksLocated)] }
      : {}),
    ...(negativeControls ? { negativeControls } : {}),
    stoppedEarly: answered.stoppedEarly,
  };
  return { ...experiment, details };
}

/** A warning per import with chunks placed only as the same words: their spans are where those words are, not the chunk's own text. */
function approximateChunkWarnings(located: Record<string, ImportPlacement["located"]>): string[] {
  return Object.entries(located).flatMap(([name, counts]) => {
    const approximate = counts.words ?? 0;
    if (approximate === 0) return [];
    const total = Object.values(counts).reduce((n, c) => n + (c ?? 0), 0);
    return [
      `${name}: ${approximate} of ${total} imported chunks were found in the extracted text only as the same words ` +
        `(markup, punctuation or line-end hyphenation differ); each is measured as the span those words cover`,
    ];
  });
}

/**
 * Said when embedders were compared under keyword search only: BM25 reads no vector, so the
 * embedder changed nothing but the semantic strategies' cuts, and every other strategy scores the
 * same with each embedder (ties a verdict cannot break).
 */
function embeddersUnderKeywordNote(outcomes: AxisOutcome[], search: Record<string, { retrieval: SearchMode }>): string | null {
  const compared = outcomes.flatMap((o) => o.variants);
  if (!compared.every((v) => search[v]?.retrieval === "keyword")) return null;
  return (
    "The embedders were compared under keyword search only, which reads no vector: the embedder changed only the cuts of the " +
    "strategies that embed sentences (semantic), so every other strategy scores the same with each embedder. " +
    "Compare embedders with --retrievers dense or hybrid (or @retrieval=)."
  );
}

/** The verdict fields with one more note, when there is one. */
function withNotes<T extends { verdictNotes: string[] }>(fields: T, ...notes: Array<string | null>): T {
  return { ...fields, verdictNotes: [...fields.verdictNotes, ...notes.filter((n): n is string => n !== null)] };
}
