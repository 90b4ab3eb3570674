// A benchmark's fourth stage (`ScoredRun`): each strategy's aggregate, the comparisons with the
// best, the per-document breakdown of a collection, and the run's cost.
import { BUILT_IN_METRICS } from "../../domain/metric-registry/registry.js";
import { DEFAULTS } from "../../config/defaults.js";
import { throwIfCancelled } from "../../errors.js";
import type { AggregateMetrics, DocumentBreakdown, Experiment, ExperimentDetails, QuestionResult } from "../../domain/experiment.js";
import { aggregate, compareWithBestInTurns, type AggregateOptions } from "../../domain/aggregate.js";
import { groupWinner } from "../../domain/group-winner.js";
import { addUsage, ZERO_USAGE } from "../../domain/metrics.js";
import { bestStrategy, defaultWeights } from "../../domain/scoring.js";
import { strategyGaps, unmeasurableMetrics } from "../../domain/measurability.js";
import type { Question } from "../../evaluators/questions.js";
import { costOf, REFERENCE_CHAT_MODEL, REFERENCE_EMBEDDING_MODEL, referenceCost } from "../../generators/pricing.js";
import type { Corpus } from "../corpus/collections.js";
import { estimateRun } from "./cost-model.js";
import { yieldToEventLoop } from "../../domain/concurrency.js";
import type { IndexingRun } from "./bench-indexing.js";
import type { BenchInput } from "./bench-input.js";
import type { BenchPlan } from "./bench-plan.js";
import type { AnswerModels, AnsweredRun } from "./bench-questions.js";

export function countBy(values: string[]): Record<string, number> {
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
export async function perDocumentBreakdown(
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

/** Every strategy's aggregate metrics, the best of them and the comparisons with it, and the scoring they used. */
export interface ScoredRun {
  aggregates: Record<string, AggregateMetrics>;
  best: string;
  comparisons: Experiment["comparisons"];
  scoring: Omit<AggregateOptions, "costUsd">;
  scoringOf: (strategy: string) => Omit<AggregateOptions, "costUsd">;
  /** Why a metric measured for some strategies only left every composite, when one did. */
  compositeNote: string | null;
}

/** Stage 4: aggregate each strategy's results (with its cost), pick the best, compare the others with it. */
export async function scoreStrategies(
  plan: BenchPlan,
  input: BenchInput,
  models: AnswerModels,
  answered: AnsweredRun,
  indexing: IndexingRun[],
): Promise<ScoredRun> {
  const { variants } = plan;
  const { results, runs } = answered;
  const metrics = plan.ctx.metrics;
  // The configuration file weighs the built-in metrics (it is read before anything is composed): a metric the
  // composition added keeps its default weight unless the run's weights name it. The built-in ones weigh as given.
  const builtIn = defaultWeights(BUILT_IN_METRICS);
  const added = Object.fromEntries(Object.entries(defaultWeights(metrics)).filter(([key]) => !(key in builtIn)));
  const weights = { ...added, ...(input.weights ?? plan.ctx.config.weights ?? defaultWeights(metrics)) };
  const gaps = strategyGaps(
    metrics,
    runs.map((r) => ({
      key: r.variant.key,
      judge: models.judge,
      retrieval: r.search.mode,
      ...(r.variant.embedder ? { retrieverEmbedder: r.variant.embedder } : {}),
    })),
  );
  const scoring = {
    metrics,
    weights: gaps.leftOut.length === 0 ? weights : { ...weights, ...Object.fromEntries(gaps.leftOut.map((w) => [w, 0])) },
    hallucinationThreshold: DEFAULTS.hallucinationThreshold,
    unmeasurable: unmeasurableMetrics(metrics, plan.dryRun, models.generator),
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
export function runCost(plan: BenchPlan, models: AnswerModels, results: Record<string, QuestionResult[]>, indexing: IndexingRun[]): ExperimentDetails["cost"] {
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
export async function estimateFullRun(plan: BenchPlan, answerPromptTokens: number): Promise<ExperimentDetails["fullRunEstimate"]> {
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
