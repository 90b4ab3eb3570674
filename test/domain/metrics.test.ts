import { test } from "node:test";
import assert from "node:assert/strict";
import { aggregate, bestStrategy, compositeScore, DEFAULT_WEIGHTS, intersectionLength, retrievalMetrics, unionSpans } from "../../src/domain/metrics.js";
import type { AggregateMetrics, QuestionResult } from "../../src/domain/experiment.js";

test("retrieval metrics follow the span definitions", () => {
  // reference 100..200 (100 chars); retrieved 150..250 and 400..450 (150 chars); shared 50.
  const m = retrievalMetrics([{ start: 100, end: 200 }], [{ start: 400, end: 450 }, { start: 150, end: 250 }]);
  assert.equal(m.recall, 0.5);
  assert.equal(m.precision, 50 / 150);
  assert.equal(m.iou, 50 / (100 + 150 - 50));
  assert.equal(m.hit, 1, "the second chunk covers half the reference");
  assert.equal(m.reciprocalRank, 0.5);
  const miss = retrievalMetrics([{ start: 0, end: 10 }], [{ start: 8, end: 40 }]);
  assert.deepEqual([miss.hit, miss.reciprocalRank], [0, 0], "20% coverage is not a hit");
  assert.ok(Math.abs(miss.recall - 0.2) < 1e-12);
});

test("overlapping retrieved chunks are not counted twice", () => {
  assert.deepEqual(unionSpans([{ start: 5, end: 10 }, { start: 0, end: 6 }, { start: 20, end: 30 }]), [{ start: 0, end: 10 }, { start: 20, end: 30 }]);
  const m = retrievalMetrics([{ start: 0, end: 10 }], [{ start: 0, end: 10 }, { start: 0, end: 10 }]);
  assert.deepEqual([m.recall, m.precision, m.iou], [1, 1, 1]);
  assert.equal(intersectionLength([{ start: 0, end: 10 }], [{ start: 5, end: 7 }, { start: 9, end: 20 }]), 3);
});

function result(metrics: Partial<QuestionResult["metrics"]>, extra: Partial<QuestionResult> = {}): QuestionResult {
  return {
    question: "q", expectedAnswer: null, references: [], retrieved: [], answer: "a", answered: true,
    metrics: { recall: null, precision: null, iou: null, hit: null, reciprocalRank: null, contextRelevance: null, answerSimilarity: null, faithfulness: null, ...metrics },
    latency: { embedSeconds: 0, searchSeconds: 0, answerSeconds: 0, totalSeconds: 1 },
    answerTokens: { promptTokens: 10, completionTokens: 2, totalTokens: 12 }, judgeTokens: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    stageSeconds: { retrieval: 0, generation: 0, judging: 0 }, error: null, ...extra,
  };
}

test("aggregation averages what was measured, counts failures, and never invents a value", () => {
  const a = aggregate(
    [
      result({ faithfulness: 9, contextRelevance: 4, recall: 1 }),
      result({ faithfulness: 3, contextRelevance: 6, recall: 0.5 }),
      result({ faithfulness: null }, { answered: false }),
      result({ faithfulness: 10 }, { error: "judge reply could not be parsed" }),
    ],
    DEFAULT_WEIGHTS,
    5,
    0,
  );
  assert.equal(a.totalQuestions, 4);
  assert.equal(a.failedQuestions, 1);
  assert.equal(a.avgFaithfulness, 6);
  assert.equal(a.hallucinationRate, 0.5, "one of the two answered, judged questions is under 5");
  assert.equal(a.avgAnswerSimilarity, null, "no question had a target");
  assert.equal(a.avgRecall, 0.75);
  assert.equal(a.totalLatencySeconds, 4);
  assert.equal(a.tokens.totalTokens, 48);
  // Composite over the metrics that exist: faithfulness 6, context relevance 5, recall 7.5.
  assert.ok(Math.abs(a.compositeScore! - (0.2 * 6 + 0.2 * 5 + 0.2 * 7.5) / 0.6) < 1e-9);
});

test("composite is missing when nothing could be measured; best strategy ties break deterministically", () => {
  assert.equal(compositeScore({ avgAnswerSimilarity: null, avgFaithfulness: null, avgContextRelevance: null, avgRecall: null, mrr: null }, DEFAULT_WEIGHTS), null);
  const base = aggregate([result({ faithfulness: 8 })], DEFAULT_WEIGHTS, 5, 0);
  const slower: AggregateMetrics = { ...base, totalLatencySeconds: base.totalLatencySeconds + 1 };
  assert.equal(bestStrategy({ b_slow: slower, a_fast: base }), "a_fast");
  assert.equal(bestStrategy({ zeta: base, alpha: { ...base } }), "alpha");
  assert.equal(bestStrategy({ low: { ...base, compositeScore: 2 }, high: { ...base, compositeScore: 7 } }), "high");
});
