import assert from "node:assert/strict";
import { test } from "node:test";
import { compareWithBest, pairedDifference, resampleScorer, scoresOf } from "../../src/domain/aggregate.js";
import type { QuestionResult } from "../../src/domain/experiment.js";
import { BUILT_IN_METRICS, createMetricRegistry } from "../../src/domain/metric-registry/registry.js";
import { defaultWeights } from "../../src/domain/scoring.js";
import { mean } from "../../src/domain/metrics.js";
import { bootstrap, bootstrapMeans, seededRandom } from "../../src/domain/statistics.js";
import { chunkHitShare } from "../helpers/chunk-hit-share-metric.js";
import { questionResult } from "../helpers/question-result.js";

/**
 * Questions with every kind of value the scoring meets: missing values, a failed question, an
 * unanswered one, faithfulness on both sides of the hallucination threshold, questions without
 * retrieved tokens, and fractions whose sums round differently in another order.
 */
function results(seed: number, n = 23): QuestionResult[] {
  const random = seededRandom(seed);
  const maybe = (v: number) => (random() < 0.15 ? null : v);
  return Array.from({ length: n }, (_, i) =>
    questionResult(
      {
        recall: maybe(random()),
        precision: maybe(random() / 3),
        iou: maybe(random() / 7),
        retrievalEfficiency: maybe(random()),
        precisionOmega: maybe(random()),
        hit: maybe(random() < 0.5 ? 1 : 0),
        reciprocalRank: maybe(1 / (1 + Math.floor(random() * 5))),
        contextRelevance: maybe(random() * 10),
        faithfulness: maybe(random() * 10),
        answerSimilarity: maybe(random() * 10),
      },
      {
        answered: random() > 0.1,
        error: i === 3 ? "the embedder failed" : null,
        ...(random() < 0.8 ? { retrievedTokens: Math.floor(random() * 900) } : {}),
      },
    ),
  );
}

const options = { metrics: BUILT_IN_METRICS, weights: defaultWeights(BUILT_IN_METRICS), hallucinationThreshold: 5, unmeasurable: {} };

function resamples(n: number, count: number, seed: number): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: n }, () => Math.floor(random() * n)));
}

test("a resample scorer gives what scoresOf gives for the resampled list, to the last bit", () => {
  for (const seed of [1, 2, 3]) {
    const list = results(seed);
    const score = resampleScorer(list, options);
    for (const indices of resamples(list.length, 200, seed + 10)) {
      assert.deepStrictEqual(
        score(indices),
        scoresOf(
          indices.map((i) => list[i]!),
          options,
        ),
      );
    }
    // The identity resample is the strategy's own score.
    assert.deepStrictEqual(score(list.map((_, i) => i)), scoresOf(list, options));
  }
});

test("a resample scorer leaves out what the run cannot measure, and counts a registered metric", () => {
  const unmeasurable = { avg_faithfulness: "answers are copied from the context", hallucination_rate: "answers are copied from the context" };
  const list = results(7);
  const score = resampleScorer(list, { ...options, unmeasurable });
  const indices = resamples(list.length, 1, 3)[0]!;
  const scored = score(indices);
  assert.equal(scored.avgFaithfulness, null);
  assert.equal(scored.hallucinationRate, null);
  assert.deepStrictEqual(
    scored,
    scoresOf(
      indices.map((i) => list[i]!),
      { ...options, unmeasurable },
    ),
  );

  // A metric a composition adds is resampled like the built-in ones.
  const metrics = createMetricRegistry({ metrics: [chunkHitShare] });
  const withShare = list.map((r, i) => ({ ...r, metrics: { ...r.metrics, chunkHitShare: i % 4 === 0 ? null : (i % 5) / 5 } }));
  const weights = defaultWeights(metrics);
  const scoredWithShare = resampleScorer(withShare, { ...options, metrics, weights })(indices);
  assert.deepStrictEqual(
    scoredWithShare,
    scoresOf(
      indices.map((i) => withShare[i]!),
      { ...options, metrics, weights },
    ),
  );
  assert.notEqual((scoredWithShare as unknown as Record<string, number | null>).avgChunkHitShare, null);
});

test("the paired comparison through resample scorers is the one through scoresOf on resampled lists", () => {
  const best = results(11);
  const other = results(12);
  const viaLists = pairedDifference(best, other, (list) => scoresOf(list, options).compositeScore);
  const [viaScorers] = compareWithBest({ best, other }, "best", options);
  assert.equal(viaScorers!.difference, viaLists.difference);
  assert.deepStrictEqual(viaScorers!.confidenceInterval, viaLists.confidenceInterval);
  assert.equal(viaScorers!.pValue, viaLists.pValue);
});

test("bootstrapMeans gives the means bootstrap gives over resampled lists, to the last bit", () => {
  const random = seededRandom(5);
  const values = Array.from({ length: 31 }, (_, i) => (i % 7 === 0 ? null : i % 11 === 0 ? Number.NaN : random() * 3));
  assert.deepStrictEqual(
    bootstrapMeans(values),
    bootstrap(values.length, (indices) => mean(indices.map((i) => values[i]!))),
  );
  assert.deepStrictEqual(bootstrapMeans([null, null]), []);
});
