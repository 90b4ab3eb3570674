import { test } from "node:test";
import assert from "node:assert/strict";
import { aggregateRankCuts, rankCuts, RANK_CUTS, rankingDepth } from "../../src/domain/rank-metrics.js";
import { type RankCut } from "../../src/domain/experiment.js";
import { BUILT_IN_METRICS, createMetricRegistry } from "../../src/domain/metric-registry/registry.js";
import { precisionAtK } from "../helpers/precision-at-k-metric.js";

const close = (actual: number | null, expected: number, what: string) =>
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} != ${expected}`);
/** Ten back-to-back chunks of 100 characters: [0,100), [100,200), … [900,1000). */
const units = Array.from({ length: 10 }, (_, i) => ({ start: 100 * i, end: 100 * (i + 1) }));
const at = (k: number, cuts: RankCut[]) => cuts.find((c) => c.k === k)!;

test("rank cuts by hand: two references found at ranks 2 and 3, nothing at rank 1", () => {
  // References A = [0,100) and B = [200,250). Ranked: [300,400) (nothing), [200,300) (all of B), [0,100) (all of A), [100,200) (nothing).
  const references = [
    { start: 0, end: 100 },
    { start: 200, end: 250 },
  ];
  const cuts = rankCuts(references, [units[3]!, units[2]!, units[0]!, units[1]!], units, BUILT_IN_METRICS.atK);
  assert.deepEqual(
    cuts.map((c) => c.k),
    [...RANK_CUTS],
  );
  // k = 1: the low case. Nothing of either reference: recall 0, MRR 0, nDCG 0 (the ideal first chunk gains 0.5).
  assert.deepEqual(at(1, cuts), { k: 1, recall: 0, reciprocalRank: 0, ndcg: 0 });
  // k = 3: recall (100 + 50) / 150 = 1; the first chunk covering half a reference is rank 2: MRR 0.5.
  // Gains: rank 2 covers all of B (share 1 of one of two references: 0.5), rank 3 all of A (0.5).
  // DCG@3 = 0.5 / log2(3) + 0.5 / log2(4) = 0.565465; ideal = 0.5 / log2(2) + 0.5 / log2(3) = 0.815465.
  close(at(3, cuts).recall, 1, "recall@3");
  close(at(3, cuts).reciprocalRank, 0.5, "MRR@3");
  close(at(3, cuts).ndcg, (0.5 / Math.log2(3) + 0.25) / (0.5 + 0.5 / Math.log2(3)), "nDCG@3");
  assert.equal(at(3, cuts).ndcg!.toFixed(4), "0.6934");
  // Ranks 4-10 add nothing: the later cuts keep the same values (the ranking is only four long).
  assert.deepEqual(at(10, cuts), { ...at(3, cuts), k: 10 });
  assert.deepEqual(at(5, cuts), { ...at(3, cuts), k: 5 });
});

test("rank cuts by hand: graded gains, half a reference per chunk, and text retrieved twice gains nothing", () => {
  // Reference [50,150): chunks [0,100) and [100,200) each cover half of it.
  const reference = [{ start: 50, end: 150 }];
  const cuts = rankCuts(reference, [units[1]!, units[1]!, units[0]!], units, BUILT_IN_METRICS.atK);
  // k = 1: recall 0.5, the chunk covers half the reference (a hit), and no chunk could gain more: nDCG 1.
  assert.deepEqual(at(1, cuts), { k: 1, recall: 0.5, reciprocalRank: 1, ndcg: 1 });
  // k = 3: the repeat gains 0, the other half comes at rank 3. DCG = 0.5 + 0 + 0.5 / 2 = 0.75; ideal 0.5 + 0.5 / log2(3).
  close(at(3, cuts).ndcg, 0.75 / (0.5 + 0.5 / Math.log2(3)), "nDCG@3");
  close(at(3, cuts).recall, 1, "recall@3");
  // A perfect ordering scores 1 at every cut.
  for (const c of rankCuts(reference, [units[0]!, units[1]!], units, BUILT_IN_METRICS.atK)) close(c.ndcg, 1, `ideal ordering nDCG@${c.k}`);
});

test("rank cuts with no chunk touching a reference: recall and MRR 0, nDCG null (nothing to order)", () => {
  const cuts = rankCuts([{ start: 5000, end: 5100 }], units.slice(0, 3), units, BUILT_IN_METRICS.atK);
  for (const c of cuts) assert.deepEqual([c.recall, c.reciprocalRank, c.ndcg], [0, 0, null]);
});

test("cut aggregates: means over the questions ranked, intervals over questions, failed questions left out", () => {
  const question = (recall: number, reciprocalRank: number, ndcg: number | null) => ({
    error: null,
    rankCuts: RANK_CUTS.map((k) => ({ k, recall, reciprocalRank, ndcg })),
  });
  const results = [question(1, 1, 1), question(0, 0, 0), question(0.5, 0.5, null), { error: "boom", rankCuts: [] }, { error: null }];
  const aggregated = aggregateRankCuts(results, BUILT_IN_METRICS.atK);
  assert.equal(aggregated.length, 4);
  const first = aggregated[0]!;
  assert.equal(first.k, 1);
  close(first.recall, 0.5, "recall mean over three ranked questions");
  close(first.mrr, 0.5, "MRR mean");
  close(first.ndcg, 0.5, "nDCG mean over the two questions it exists for");
  assert.ok(first.confidenceIntervals.recall![0] < 0.5 && first.confidenceIntervals.recall![1] > 0.5, "spread-out questions leave uncertainty");
  assert.deepEqual(aggregateRankCuts([{ error: null }], BUILT_IN_METRICS.atK), [], "no references, no cuts");
  assert.equal(rankingDepth(5), 10);
  assert.equal(rankingDepth(12), 12, "a deeper top_k ranks deeper");
});

test("an at-k metric registered with one line is scored at every cut after the built-in ones, averaged with its interval, and gone once taken out", () => {
  const references = [
    { start: 0, end: 100 },
    { start: 200, end: 250 },
  ];
  // Ranked: [300,400) (nothing), [200,300) (B), [0,100) (A), [100,200) (it only touches A's end, 100, which is outside A).
  const ranked = [units[3]!, units[2]!, units[0]!, units[1]!];
  assert.throws(
    () => createMetricRegistry({ atKMetrics: [{ ...precisionAtK, label: "P@k", perQuestionField: "p", field: "recall" }] }),
    /clashes with the registered metric Recall@k/,
  );
  const atK = createMetricRegistry({ atKMetrics: [precisionAtK] }).atK;
  const cuts = rankCuts(references, ranked, units, atK);
  const aggregated = aggregateRankCuts(
    [
      { error: null, rankCuts: cuts },
      { error: null, rankCuts: rankCuts(references, [units[0]!, units[2]!], units, atK) },
    ],
    atK,
  );
  const field = (o: object, name: string) => (o as Record<string, unknown>)[name];
  // Its field comes after the built-in ones, in registry order (the order the Experiment JSON writes them in).
  assert.deepEqual(Object.keys(at(3, cuts)), ["k", "recall", "reciprocalRank", "ndcg", "precision"]);
  // Two of the four ranked chunks overlap a reference (ranks 2 and 3); the ranks past the fourth are misses.
  assert.deepEqual(
    cuts.map((c) => field(c, "precision")),
    [0, 2 / 3, 2 / 5, 2 / 10],
  );
  // The second question's two chunks both hit: 1 at k = 1, then 2/3, 2/5, 2/10. Means per cut, after the built-in fields.
  assert.deepEqual(
    aggregated.map((c) => field(c, "precision")),
    [0.5, 2 / 3, 2 / 5, 2 / 10],
  );
  assert.deepEqual(Object.keys(aggregated[0]!), ["k", "recall", "mrr", "ndcg", "precision", "confidenceIntervals"]);
  assert.deepEqual(Object.keys(aggregated[0]!.confidenceIntervals), ["recall", "mrr", "ndcg", "precision"]);
  const [low, high] = field(aggregated[0]!.confidenceIntervals, "precision") as [number, number];
  assert.ok(low === 0 && high === 1, `two questions at 0 and 1 leave the whole range: [${low}, ${high}]`);
  assert.deepEqual(
    Object.keys(rankCuts(references, ranked, units, BUILT_IN_METRICS.atK)[0]!),
    ["k", "recall", "reciprocalRank", "ndcg"],
    "another composition's registry does not have it",
  );
});
