import { DEFAULTS } from "../config/defaults.js";
import { BenchmarkError, CancelledError, describeError, throwIfCancelled, ValidationError } from "../errors.js";
import { newId, nowTimestamp } from "../domain/ids.js";
import type { Experiment, ExperimentDetails, ExperimentRecord, QuestionResult, StrategyIndexing } from "../domain/experiment.js";
import { aggregate, compareWithBest, verdictSentence } from "../domain/aggregate.js";
import { addUsage, bestStrategy, DEFAULT_WEIGHTS, precisionOmega, retrievalEfficiency, retrievalMetrics, ZERO_USAGE } from "../domain/metrics.js";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, CONFIDENCE_LEVEL } from "../domain/statistics.js";
import type { RunOptions, TokenUsage } from "../domain/types.js";
import { resolveQuestions, type Question, type QuestionInput } from "../evaluators/questions.js";
import { buildAnswerPrompt, ANSWER_SYSTEM_PROMPT } from "../generators/prompt.js";
import { costOf, REFERENCE_CHAT_MODEL, REFERENCE_EMBEDDING_MODEL, referenceCost } from "../generators/pricing.js";
import { retrieve } from "../retrieval/retrieve.js";
import { parseStrategyList } from "../strategies/registry.js";
import { countTokens } from "../text/tokens.js";
import { checkTopK } from "./ask.js";
import type { ServiceContext } from "./context.js";
import { findOrUploadDocument, requireDocument } from "./documents.js";
import { processDocument } from "./process.js";

/** Completion tokens assumed per answer when a dry run estimates the bill of the full run. */
export const DRY_RUN_COMPLETION_TOKENS = 120;
/** Seconds assumed per chat-model call when a dry run estimates the time of the full run. */
export const DRY_RUN_LLM_CALL_SECONDS = 2;

export interface BenchInput extends RunOptions {
  /** An existing document id, or a Word file to upload (reused if the same bytes were uploaded before). */
  document: { id: string } | { filename: string; bytes: Buffer };
  questions: QuestionInput[];
  /** Where the questions came from, for the report and error messages. */
  questionsSource: string;
  strategies: string | string[];
  topK?: number;
  dryRun?: boolean;
  /** Stop after this many failed questions (all strategies together). */
  maxErrors?: number;
  judge?: string;
  weights?: Record<string, number>;
}


/** Indexing figures of one strategy, with the LLM usage its contextualisation spent in this run. */
type IndexingRun = StrategyIndexing & { contextUsage: TokenUsage };

/** Processes the strategies that are missing or were processed with other options or another embedder. */
async function ensureProcessed(ctx: ServiceContext, documentId: string, strategies: string[], options: RunOptions): Promise<IndexingRun[]> {
  const embedder = await ctx.embedder();
  const out: IndexingRun[] = [];
  for (const name of strategies) {
    const wanted = (await ctx.strategies.get(name).create(ctx.config.strategyOptions[name])).options;
    const state = ctx.chunks.state(documentId, name);
    const reused = state !== null && state.embedder === embedder.name && JSON.stringify(state.options) === JSON.stringify(wanted);
    const before = { tokens: embedder.stats.computedTokens, llm: ctx.llmUsage().get(ctx.config.generator) ?? ZERO_USAGE };
    let seconds = 0;
    if (!reused) {
      const result = await processDocument(ctx, documentId, [name], options);
      if (result.strategiesFailed.length > 0) throw new BenchmarkError(`processing ${name} failed: ${result.strategiesFailed[0]!.error}`);
      seconds = result.strategiesCompleted[0]!.seconds;
    }
    const llmAfter = ctx.llmUsage().get(ctx.config.generator) ?? ZERO_USAGE;
    const contextUsage = { promptTokens: llmAfter.promptTokens - before.llm.promptTokens, completionTokens: llmAfter.completionTokens - before.llm.completionTokens, totalTokens: llmAfter.totalTokens - before.llm.totalTokens };
    const embeddedTokens = embedder.stats.computedTokens - before.tokens;
    const chunks = ctx.chunks.current(documentId, name).filter((c) => c.role === "chunk");
    out.push({
      strategy: name,
      chunks: chunks.length,
      seconds,
      embeddedTokens,
      costUsd: costOf(embedder.name, { promptTokens: embeddedTokens, completionTokens: 0, totalTokens: embeddedTokens }) + costOf(ctx.config.generator, contextUsage),
      tokenSizes: chunks.map((c) => c.tokenCount),
      reused,
      contextUsage,
    });
  }
  return out;
}

function emptyResult(q: Question): QuestionResult {
  return {
    question: q.question,
    expectedAnswer: q.expectedAnswer,
    references: q.references,
    retrieved: [],
    answer: null,
    answered: false,
    metrics: { recall: null, precision: null, iou: null, retrievalEfficiency: null, precisionOmega: null, hit: null, reciprocalRank: null, contextRelevance: null, answerSimilarity: null, faithfulness: null },
    latency: { embedSeconds: 0, searchSeconds: 0, answerSeconds: 0, totalSeconds: 0 },
    answerTokens: ZERO_USAGE,
    judgeTokens: ZERO_USAGE,
    stageSeconds: { retrieval: 0, generation: 0, judging: 0 },
    error: null,
  };
}

/**
 * Metrics this run's configuration cannot measure, with the reason: they are reported as null
 * with that reason rather than as a number that could not have come out otherwise.
 */
function unmeasurableMetrics(dryRun: boolean, generator: { name: string; isLlm: boolean } | null): Record<string, string> {
  if (dryRun) {
    const reason = "dry run: no answers were generated or judged";
    return { avg_context_relevance: reason, avg_answer_similarity: reason, avg_faithfulness: reason, hallucination_rate: reason };
  }
  if (generator && !generator.isLlm) {
    const reason = `answers are copied from the retrieved context (${generator.name} generator), so they cannot be unsupported by it`;
    return { avg_faithfulness: reason, hallucination_rate: reason };
  }
  return {};
}

/** The spans a strategy can return for a question (for parent-child strategies, the parents): Precision_Ω's chunks. */
function retrievableSpans(ctx: ServiceContext, documentId: string, strategy: string) {
  const stored = ctx.chunks.current(documentId, strategy);
  const role = stored.some((c) => c.role === "parent") ? "parent" : "chunk";
  return stored.filter((c) => c.role === role).map((c) => ({ start: c.start, end: c.end }));
}

/**
 * The checks a benchmark request passes before any work starts: a background request runs
 * them before its 202, so it is refused exactly as the synchronous one would be.
 */
export function checkBenchInput(ctx: ServiceContext, input: BenchInput): { strategies: string[]; topK: number } {
  const strategies = parseStrategyList(ctx.strategies, input.strategies, BenchmarkError);
  const topK = checkTopK(input.topK ?? ctx.config.topK);
  if (input.questions.length === 0) throw new BenchmarkError("the benchmark has no questions");
  if (input.maxErrors !== undefined && (!Number.isInteger(input.maxErrors) || input.maxErrors < 1)) throw new ValidationError("max_errors must be a whole number >= 1");
  if ("id" in input.document) resolveQuestions(input.questionsSource, input.questions, requireDocument(ctx, input.document.id).text);
  return { strategies, topK };
}

/**
 * Runs every question against every strategy and stores the experiment: retrieval metrics
 * when references exist, then (unless a dry run) an answer and the judge's scores. A question
 * that fails is recorded with its error and the run goes on, up to `maxErrors`.
 */
export async function runBenchmark(ctx: ServiceContext, input: BenchInput): Promise<ExperimentRecord> {
  const { strategies, topK } = checkBenchInput(ctx, input);
  const weights = input.weights ?? ctx.config.weights ?? DEFAULT_WEIGHTS;
  const dryRun = input.dryRun ?? false;
  const started = performance.now();

  const documentId = await findOrUploadDocument(ctx, input.document);
  const document = requireDocument(ctx, documentId);
  const questions = resolveQuestions(input.questionsSource, input.questions, document.text);
  const embedder = await ctx.embedder();
  const statsBefore = { ...embedder.stats };

  const processingStart = performance.now();
  const indexing = await ensureProcessed(ctx, documentId, strategies, input);
  const processingSeconds = (performance.now() - processingStart) / 1000;

  const generator = dryRun ? null : await ctx.generator();
  const judge = dryRun ? null : await ctx.judge(input.judge);
  const vectors = await ctx.vectors();
  const results: Record<string, QuestionResult[]> = {};
  const total = strategies.length * questions.length;
  let failures = 0;
  let stoppedEarly: string | null = null;
  const dryRunPromptTokens: number[] = [];

  for (const [s, strategy] of strategies.entries()) {
    const state = ctx.chunks.state(documentId, strategy)!;
    const strategyEmbedder = await ctx.embedder(state.embedder);
    const units = retrievableSpans(ctx, documentId, strategy);
    results[strategy] = [];
    for (const [i, q] of questions.entries()) {
      if (stoppedEarly) break;
      throwIfCancelled(input.signal);
      input.onProgress?.({ stage: "bench", message: `${strategy}: question ${i + 1}/${questions.length}`, done: s * questions.length + i, total });
      const result = emptyResult(q);
      try {
        const t0 = performance.now();
        const retrieval = await retrieve({ vectors, chunks: ctx.chunks, embedder: strategyEmbedder }, state, q.question, topK, input.signal);
        result.stageSeconds.retrieval = (performance.now() - t0) / 1000;
        result.retrieved = retrieval.chunks.map((c) => ({ chunkId: c.chunkId, score: c.score, start: c.start, end: c.end, text: c.text, parentId: c.parentId }));
        result.latency = { embedSeconds: retrieval.embedSeconds, searchSeconds: retrieval.searchSeconds, answerSeconds: 0, totalSeconds: retrieval.embedSeconds + retrieval.searchSeconds };
        if (q.references.length > 0) {
          const spans = retrievalMetrics(q.references, retrieval.chunks);
          Object.assign(result.metrics, spans, {
            retrievalEfficiency: retrievalEfficiency(spans.iou, q.references, document.text.length),
            precisionOmega: precisionOmega(q.references, units),
          });
        }
        if (dryRun) {
          dryRunPromptTokens.push(countTokens(ANSWER_SYSTEM_PROMPT) + countTokens(buildAnswerPrompt(q.question, retrieval.chunks)));
        } else {
          const t1 = performance.now();
          const generation = await generator!.answer(q.question, retrieval.chunks, input.signal);
          result.stageSeconds.generation = (performance.now() - t1) / 1000;
          result.answer = generation.answer;
          result.answered = generation.answered;
          result.answerTokens = generation.usage;
          result.latency.answerSeconds = result.stageSeconds.generation;
          result.latency.totalSeconds += result.stageSeconds.generation;
          const t2 = performance.now();
          const target = q.expectedAnswer ?? (q.references.length > 0 ? q.references.map((r) => r.text).join(" ") : null);
          const verdict = await judge!.judge(
            { question: q.question, answer: generation.answer, answered: generation.answered, measureFaithfulness: generator!.isLlm, contexts: retrieval.chunks.map((c) => c.text), document: document.text, target },
            input.signal,
          );
          result.stageSeconds.judging = (performance.now() - t2) / 1000;
          result.metrics.contextRelevance = verdict.contextRelevance;
          result.metrics.faithfulness = verdict.faithfulness;
          result.metrics.answerSimilarity = verdict.answerSimilarity;
          result.judgeTokens = verdict.usage;
        }
      } catch (error) {
        if (error instanceof CancelledError) throw error;
        result.error = describeError(error);
        failures++;
        if (input.maxErrors !== undefined && failures >= input.maxErrors) stoppedEarly = `stopped after ${failures} failed question(s) (--max-errors ${input.maxErrors})`;
      }
      results[strategy].push(result);
    }
  }

  const judgeSpec = dryRun ? "none (dry run)" : judge!.name;
  const generatorSpec = ctx.config.generator;
  const sumStage = (k: keyof QuestionResult["stageSeconds"]) => Object.values(results).flat().reduce((n, r) => n + r.stageSeconds[k], 0);
  const answerUsage = Object.values(results).flat().reduce((u, r) => addUsage(u, r.answerTokens), ZERO_USAGE);
  const judgeUsage = Object.values(results).flat().reduce((u, r) => addUsage(u, r.judgeTokens), ZERO_USAGE);
  const contextUsage = indexing.reduce((u, x) => addUsage(u, x.contextUsage), ZERO_USAGE);
  const embeddedTokens = embedder.stats.computedTokens - statsBefore.computedTokens;
  const embeddingUsage = { promptTokens: embeddedTokens, completionTokens: 0, totalTokens: embeddedTokens };
  const cost = {
    answersUsd: costOf(generatorSpec, answerUsage),
    judgingUsd: dryRun ? 0 : costOf(judgeSpec, judgeUsage),
    embeddingsUsd: costOf(embedder.name, embeddingUsage),
    contextualisationUsd: costOf(generatorSpec, contextUsage),
    referenceModel: `${REFERENCE_CHAT_MODEL} + ${REFERENCE_EMBEDDING_MODEL}`,
    referenceUsd: referenceCost(REFERENCE_CHAT_MODEL, addUsage(addUsage(answerUsage, judgeUsage), contextUsage)) + referenceCost(REFERENCE_EMBEDDING_MODEL, embeddingUsage),
  };

  let fullRunEstimate: ExperimentDetails["fullRunEstimate"] = null;
  if (dryRun) {
    const promptTokens = dryRunPromptTokens.reduce((a, b) => a + b, 0);
    const usage = { promptTokens, completionTokens: dryRunPromptTokens.length * DRY_RUN_COMPLETION_TOKENS, totalTokens: promptTokens + dryRunPromptTokens.length * DRY_RUN_COMPLETION_TOKENS };
    const calls = dryRunPromptTokens.length;
    const generatorIsLlm = generatorSpec.startsWith("openai:");
    const judgeIsLlm = ctx.config.judge.startsWith("openai:");
    // Judging re-reads the context about three times (relevance, statements, verification).
    const judgeUsageEstimate = judgeIsLlm ? { promptTokens: 3 * promptTokens, completionTokens: 3 * usage.completionTokens, totalTokens: 3 * usage.totalTokens } : ZERO_USAGE;
    const perTextSeconds = embedder.stats.computed > 0 ? embedder.stats.embedSeconds / embedder.stats.computed : 0;
    const localJudgeSeconds = calls * 12 * perTextSeconds; // about a dozen sentences per retrieved context
    fullRunEstimate = {
      costUsd: cost.embeddingsUsd + cost.contextualisationUsd + costOf(generatorSpec, usage) + costOf(ctx.config.judge, judgeUsageEstimate),
      seconds:
        (performance.now() - started) / 1000 +
        (generatorIsLlm ? calls * DRY_RUN_LLM_CALL_SECONDS : 0) +
        (judgeIsLlm ? 3 * calls * DRY_RUN_LLM_CALL_SECONDS : localJudgeSeconds),
      referenceUsd: cost.referenceUsd + referenceCost(REFERENCE_CHAT_MODEL, usage),
    };
  }

  const scoring = { weights, hallucinationThreshold: DEFAULTS.hallucinationThreshold, unmeasurable: unmeasurableMetrics(dryRun, generator) };
  const aggregates = Object.fromEntries(
    strategies.map((s) => {
      const list = results[s]!;
      const idx = indexing.find((x) => x.strategy === s)!;
      const strategyCost = costOf(generatorSpec, list.reduce((u, r) => addUsage(u, r.answerTokens), ZERO_USAGE)) + (dryRun ? 0 : costOf(judgeSpec, list.reduce((u, r) => addUsage(u, r.judgeTokens), ZERO_USAGE))) + idx.costUsd;
      return [s, aggregate(list, { ...scoring, costUsd: strategyCost })];
    }),
  );
  const best = bestStrategy(aggregates);
  const comparisons = compareWithBest(results, best, scoring);
  const experiment: Experiment = {
    experimentId: newId("exp"),
    documentId,
    strategiesUsed: strategies,
    questionsCount: questions.length,
    aggregateMetrics: aggregates,
    bestStrategy: best,
    totalLatencySeconds: Object.values(aggregates).reduce((n, a) => n + a.totalLatencySeconds, 0),
    estimatedCostUsd: cost.answersUsd + cost.judgingUsd + cost.embeddingsUsd + cost.contextualisationUsd,
    createdAt: nowTimestamp(),
    verdict: verdictSentence(best, aggregates[best]!.compositeScore, comparisons, questions.length),
    comparisons,
  };
  const details: ExperimentDetails = {
    questionsSource: input.questionsSource,
    topK,
    dryRun,
    embedder: embedder.name,
    generator: dryRun ? "none (dry run)" : generatorSpec,
    judge: judgeSpec,
    strategyOptions: Object.fromEntries(strategies.map((s) => [s, ctx.chunks.state(documentId, s)!.options])),
    weights,
    hallucinationThreshold: DEFAULTS.hallucinationThreshold,
    statistics: { method: "percentile bootstrap over questions (paired for comparisons)", resamples: BOOTSTRAP_RESAMPLES, confidenceLevel: CONFIDENCE_LEVEL, seed: BOOTSTRAP_SEED },
    indexing: indexing.map(({ strategy, chunks, seconds, embeddedTokens: t, costUsd, tokenSizes, reused }) => ({ strategy, chunks, seconds, embeddedTokens: t, costUsd, tokenSizes, reused })),
    cost,
    fullRunEstimate,
    stageSeconds: { processing: processingSeconds, retrieval: sumStage("retrieval"), generation: sumStage("generation"), judging: sumStage("judging") },
    embeddings: { computed: embedder.stats.computed - statsBefore.computed, cached: embedder.stats.cached - statsBefore.cached },
    stoppedEarly,
  };
  const record: ExperimentRecord = { ...experiment, details };
  ctx.experiments.insert(record, results);
  input.onProgress?.({ stage: "bench", message: "done", done: total, total });
  return record;
}
