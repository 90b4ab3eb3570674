// A benchmark's third stage (`AnsweredRun`): every question asked of every variant: retrieval,
// the answer, the judge's scores, with the work variants share (question vectors) done once.
import { BenchmarkError, CancelledError, describeError, LlmCallLimitError, throwIfCancelled } from "../../errors.js";
import type { QuestionResult, SharedSeconds } from "../../domain/experiment.js";
import { CorpusOffsets } from "../../domain/corpus-offsets.js";
import { rankCuts, rankingDepth } from "../../domain/rank-metrics.js";
import { scoreAnswer, scoreRetrieval } from "../../domain/question-scoring.js";
import type { RetrievedQuestion } from "../../domain/question-evaluation.js";
import type { StoredDocument } from "../../domain/types.js";
import { judgeTarget, type Question } from "../../evaluators/questions.js";
import { buildAnswerPrompt, ANSWER_SYSTEM_PROMPT } from "../../generators/prompt.js";
import { retrieve } from "../../retrieval/retrieve.js";
import { countTokens } from "../../text/tokens.js";
import type { ServiceContext } from "../context.js";
import { embedderOf, variantSearchPlan, type StrategyVariant } from "../corpus/variants.js";
import { DRY_RUN_LABEL } from "./cost-model.js";
import { mapWithConcurrency, yieldToEventLoop } from "../../domain/concurrency.js";
import type { SearchPlan } from "../../domain/default-search-mode.js";
import type { Embedder } from "../../embedders/embedder.js";
import type { Generator } from "../../generators/generator.js";
import type { Judge } from "../../domain/judge.js";
import type { StrategyState } from "../../domain/ports/chunks.js";
import type { CachedEmbedder } from "../../embedders/cache.js";
import { emptyResult } from "../../domain/question-result.js";
import type { BenchInput } from "./bench-input.js";
import type { BenchPlan } from "./bench-plan.js";

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

/** The generator and judge a run answers with (none in a dry run), and the names the experiment records. */
export interface AnswerModels {
  generator: Generator | null;
  judge: Judge | null;
  generatorSpec: string;
  judgeSpec: string;
}

export async function answerModels(plan: BenchPlan, input: BenchInput): Promise<AnswerModels> {
  const generator = plan.dryRun ? null : await plan.ctx.generator();
  const judge = plan.dryRun ? null : await plan.ctx.judge(input.judge);
  return { generator, judge, generatorSpec: plan.ctx.config.generator, judgeSpec: judge ? judge.name : DRY_RUN_LABEL };
}

/** What running the questions produced: every variant's results in question order, and what the run shared. */
export interface AnsweredRun {
  runs: VariantRun[];
  results: Record<string, QuestionResult[]>;
  sharedByAll: SharedWork;
  stoppedEarly: string | null;
  /** The answer prompts a dry run built, in tokens (for the full run's estimate). */
  dryRunPromptTokens: number;
}

/** Stage 3: every question against every variant, interleaved, up to `maxErrors` failures. */
export async function runQuestions(plan: BenchPlan, input: BenchInput, models: AnswerModels): Promise<AnsweredRun> {
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
  const metrics = plan.ctx.metrics;
  const result = emptyResult(q, metrics);
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
    await scoreRetrieval(metrics, result.metrics, evaluation);
    if (q.references.length > 0) {
      result.rankCuts = rankCuts(
        evaluation.references,
        ranking.chunks.map((c) => axis.place(c.documentId, c)),
        run.units,
        metrics.atK,
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
      await scoreAnswer(metrics, result.metrics, { ...evaluation, answer: generation.answer, answered: generation.answered, verdict });
    }
  } catch (error) {
    // Cancelled, or out of the request's chat calls: the run stops (every question after would fail alike).
    if (error instanceof CancelledError || error instanceof LlmCallLimitError) throw error;
    result.error = describeError(error);
  }
  return { result, promptTokens };
}
