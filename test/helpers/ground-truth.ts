// What the ground-truth tests of the offline judge share (test/evaluators/context-relevance-*.test.ts,
// one file per corpus so that the three run side by side). The offline judge's context relevance
// against ground truth (span recall) on real benchmark runs, on the handbook and on the second
// corpus (examples/standard, never tuned on: its questions carry a dev / heldout split and both halves are printed). The offline stack,
// the `use` embedder retrieving densely (groundTruthWorkspace), so retrieval and the judge's
// lexical evidence are independent. On the handbook, chunk sizes of 128 beside the defaults make recall vary at
// top_k 5, where the default strategies find nearly every passage; the second corpus (four
// documents, 85 questions) runs the dense strategies only, to keep the test short.
// The example corpus (examples/corpus, questions in a reader's own words) is printed beside them,
// held to a floor below the target, and checked for the order of strategies.
// Each run also asks the offline generator's negative controls (a real section asked about a
// subject the document never mentions): their context relevance must be low, and they are left
// out of the correlations (no recall).
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { pairedDifference } from "../../src/domain/aggregate.js";
import type { QuestionResult } from "../../src/domain/experiment.js";
import { mean } from "../../src/domain/metrics.js";
import { loadQuestionsFile, validateQuestions } from "../../src/evaluators/questions.js";
import type { CorpusTarget } from "../../src/services/corpus/collections.js";
import { toWire } from "../../src/transports/serialize.js";
import { spearman } from "./rank-correlation.js";
import { createWorkspace, type Workspace } from "./workspace.js";

/** The built-in strategies but contextual_retrieval, searched densely here (groundTruthWorkspace). */
export const DENSE = ["recursive", "fixed_size", "semantic", "semantic_parent_child", "structure"];
/** Smaller chunks, so that recall varies on the handbook at top_k 5 too. */
export const SMALL_CHUNKS = ["recursive@chunk_size=128", "fixed_size@chunk_size=128"];
/** A variant the ground-truth runs never score: hybrid search leaves the offline judge no evidence independent of it. */
export const HYBRID = "contextual_retrieval@retrieval=hybrid";
export const TARGET = 0.5;
/** Below this (0-10, the middle of the scale) a strategy's average context relevance on the negative controls must stay, at each top_k. */
const NEGATIVE_CEILING = 5;

/**
 * The workspace of a ground-truth test file: the default offline stack, the bundled model
 * retrieving densely. Dense by configuration: the default for the bundled model is keyword search
 * (docs/benchmarks.md "Retrieval"), whose rows the judge scores by its sentence ranking
 * (context-relevance-keyword.test.ts holds that one); these tests hold the lexical evidence, which
 * scores dense rows, to the target.
 */
export function groundTruthWorkspace(): Promise<Workspace> {
  return createWorkspace({ embedder: "use", retrieval: "dense" });
}

export interface Runs {
  /** Per top_k, per variant, the question results in the questions' order. */
  byTopK: Map<number, Record<string, QuestionResult[]>>;
  /** Per question, its split ("dev" / "heldout"), or null. */
  splits: Array<string | null>;
}

/** The fewest negative controls whose average says anything; the example corpus's five documents leave 4 of the 16 foreign subjects unused. */
const MIN_NEGATIVES = 5;

export async function benchAtEachTopK(
  ws: Workspace,
  target: CorpusTarget,
  questionsPath: string,
  name: string,
  strategies: string[],
  minNegatives = MIN_NEGATIVES,
): Promise<Runs> {
  // The offline generator's negative controls, after the hand-written questions (so the indexes of `splits` still hold).
  const generated = await ws.app.generateQuestions({ ...target, count: 1, negatives: 16, generator: "template" });
  const negatives = validateQuestions("negatives", toWire(generated.questions.filter((q) => q.answerable === false)));
  const stored = generated.metadata.collection
    ? { collection: { name: generated.metadata.collection.name } }
    : { document: { id: generated.metadata.document.id } };
  const questions = [...(await loadQuestionsFile(questionsPath)), ...negatives];
  const raw = JSON.parse(readFileSync(questionsPath, "utf8")) as Array<{ split?: string }>;
  const byTopK = new Map<number, Record<string, QuestionResult[]>>();
  for (const topK of [1, 5]) {
    const e = await ws.app.bench({ ...stored, questions, questionsSource: name, strategies, topK });
    if (strategies.includes(HYBRID)) {
      const missing = (await ws.app.getExperiment(e.experimentId)).aggregateMetrics[HYBRID]!.missing.avg_context_relevance;
      assert.match(missing ?? "", /hybrid retrieval/, "hybrid retrieval: context relevance is null with the reason");
    }
    const results = await ws.app.experimentResults(e.experimentId);
    assertNegativesLow(`${name} top_k ${topK}`, results, negatives.length, minNegatives);
    byTopK.set(topK, Object.fromEntries(Object.entries(results).map(([variant, list]) => [variant, list.filter((r) => r.answerable !== false)])));
  }
  return { byTopK, splits: raw.map((q) => q.split ?? null) };
}

/** Per strategy, the negative controls' average context relevance is under NEGATIVE_CEILING and under half the answerable questions'. */
function assertNegativesLow(label: string, results: Record<string, QuestionResult[]>, count: number, minNegatives: number) {
  assert.ok(count >= minNegatives, `${label}: ${count} negative controls`);
  for (const [variant, list] of Object.entries(results)) {
    if (variant === HYBRID) continue;
    const negatives = mean(list.filter((r) => r.answerable === false).map((r) => r.metrics.contextRelevance))!;
    const answerable = mean(list.filter((r) => r.answerable !== false).map((r) => r.metrics.contextRelevance))!;
    console.log(
      `# ${label}: ${variant.padEnd(26)} context relevance on ${count} negative controls ${negatives.toFixed(2)}, on the answerable ${answerable.toFixed(2)}`,
    );
    assert.ok(negatives < NEGATIVE_CEILING && negatives < answerable / 2, `${label}: ${variant}: negatives ${negatives}, answerable ${answerable}`);
  }
}

/** Spearman(context relevance, span recall) over the (variant, question) pairs the judge scored, among the questions kept. */
export function correlation(results: Record<string, QuestionResult[]>, keep: (i: number) => boolean): { rho: number; pairs: number } {
  const pairs = Object.entries(results)
    .filter(([variant]) => variant !== HYBRID)
    .flatMap(([, list]) => list.filter((r, i) => keep(i) && r.error === null && r.metrics.contextRelevance !== null));
  assert.ok(new Set(pairs.map((r) => r.metrics.recall)).size >= 2, "recall varies");
  const rho = spearman(
    pairs.map((r) => r.metrics.contextRelevance!),
    pairs.map((r) => r.metrics.recall!),
  );
  assert.ok(rho !== null, "context relevance varies");
  return { rho, pairs: pairs.length };
}

/**
 * The pairs of variants whose recall differs significantly (paired bootstrap over the questions),
 * and how many of them their average context relevance orders the same way (each printed).
 */
export function ordersAsRecall(label: string, results: Record<string, QuestionResult[]>): { checked: number; agreeing: number } {
  const variants = Object.keys(results).filter((v) => v !== HYBRID);
  const average = (key: "recall" | "contextRelevance") => (list: QuestionResult[]) => mean(list.map((r) => r.metrics[key]));
  let checked = 0;
  let agreeing = 0;
  for (const [i, a] of variants.entries()) {
    for (const b of variants.slice(i + 1)) {
      const recall = pairedDifference(results[a]!, results[b]!, average("recall"));
      if (!recall.significant) continue;
      checked++;
      const relevance = average("contextRelevance")(results[a]!)! - average("contextRelevance")(results[b]!)!;
      const agrees = Math.sign(relevance) === Math.sign(recall.difference!);
      if (agrees) agreeing++;
      const way = agrees ? "" : " (the other way)";
      console.log(`# ${label}: ${a} - ${b}: recall ${recall.difference!.toFixed(3)} (significant), context relevance ${relevance.toFixed(2)}${way}`);
    }
  }
  return { checked, agreeing };
}

/** Where two variants' recall differs significantly, their average context relevance differs the same way. Returns the pairs checked. */
export function assertOrdersAsRecall(label: string, results: Record<string, QuestionResult[]>): number {
  const { checked, agreeing } = ordersAsRecall(label, results);
  assert.equal(agreeing, checked, `${label}: context relevance orders ${checked - agreeing} of ${checked} significantly different pairs against recall`);
  return checked;
}

export function printStrategies(label: string, results: Record<string, QuestionResult[]>) {
  for (const [variant, list] of Object.entries(results)) {
    const relevance = mean(list.map((r) => r.metrics.contextRelevance));
    const recall = mean(list.map((r) => r.metrics.recall))!;
    console.log(`# ${label}: ${variant.padEnd(26)} recall ${recall.toFixed(3)}  context relevance ${relevance === null ? "null" : relevance.toFixed(2)}`);
  }
}
