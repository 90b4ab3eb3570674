// A benchmark's last stage: the experiment record assembled from the stages' results, with the
// verdict, its notes and the figures the reports print.
import { DEFAULTS } from "../../config/defaults.js";
import { throwIfCancelled } from "../../errors.js";
import { newId, nowTimestamp } from "../../domain/ids.js";
import type { Experiment, ExperimentDetails, ExperimentRecord, QuestionResult } from "../../domain/experiment.js";
import { verdictSentence } from "../../domain/aggregate.js";
import {
  agreementNote,
  EMBEDDER_AXIS,
  outcomesAcross,
  outcomesByRetriever,
  retrieverAgreementNote,
  type AxisOutcome,
} from "../../domain/retriever-agreement.js";
import { retrievedTokensTradeOff } from "../../domain/tokens-trade-off.js";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, CONFIDENCE_LEVEL } from "../../domain/statistics.js";
import { negativeControlCounts } from "../../domain/negative-controls.js";
import { profileQuestionSet } from "../../evaluators/question-set.js";
import { verdictFields } from "../../domain/verdict-basis.js";
import { contextJudgeNote } from "../../domain/context-judge-note.js";
import { variantSearchPlan } from "../corpus/variants.js";
import { DRY_RUN_LABEL } from "./cost-model.js";
import type { SearchMode } from "../../domain/variant-key.js";
import type { ImportPlacement } from "../../strategies/imported-chunks.js";
import { chunkHealthOfRun } from "./chunk-health.js";
import type { IndexingRun } from "./bench-indexing.js";
import type { BenchInput } from "./bench-input.js";
import type { BenchPlan } from "./bench-plan.js";
import type { AnswerModels, AnsweredRun } from "./bench-questions.js";
import { type ScoredRun, countBy, perDocumentBreakdown, runCost } from "./bench-scoring.js";

/** Stage 5: the experiment record: the verdict and its basis over the scored strategies, and the run's details. */
export async function assembleExperiment(
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
      ? {
          chunksLocated: plan.chunksLocated,
          ...(Object.keys(plan.chunksApproximate).length > 0 ? { chunksApproximate: plan.chunksApproximate } : {}),
          chunkWarnings: [...chunking.figures.chunkWarnings, ...approximateChunkWarnings(plan.chunksLocated, plan.chunksApproximate)],
        }
      : {}),
    ...(negativeControls ? { negativeControls } : {}),
    stoppedEarly: answered.stoppedEarly,
  };
  return { ...experiment, details };
}

/** A warning per import with chunks placed only as the same words: their spans are where those words are, not the chunk's own text. */
function approximateChunkWarnings(located: Record<string, ImportPlacement["located"]>, places: Record<string, string[]>): string[] {
  return Object.entries(located).flatMap(([name, counts]) => {
    const approximate = counts.words ?? 0;
    if (approximate === 0) return [];
    const total = Object.values(counts).reduce((n, c) => n + (c ?? 0), 0);
    const where = places[name] ?? [];
    const listed = where.length > 0 ? ` (${where.join(", ")}${approximate > where.length ? ", …" : ""})` : "";
    return [
      `${name}: ${approximate} of ${total} imported chunks were found in the extracted text only as the same words${listed} ` +
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
