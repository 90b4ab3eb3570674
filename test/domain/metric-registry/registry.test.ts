import { test } from "node:test";
import { BUILT_IN_METRICS, createMetricRegistry } from "../../../src/domain/metric-registry/registry.js";
import type { Metric } from "../../../src/domain/metric-registry/metric.js";
import { chunkHitShare } from "../../helpers/chunk-hit-share-metric.js";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { scorecardMetrics } from "../../../src/domain/metric-catalogue.js";
import { compositeContributions, defaultWeights, qualityMeans } from "../../../src/domain/scoring.js";
import { aggregate } from "../../../src/domain/aggregate.js";
import { questionResult } from "../../helpers/question-result.js";

test("every metric is one file under src/domain/metric-registry and one registry line, with a key and field of its own", () => {
  const files = readdirSync("src/domain/metric-registry").filter((f) => f !== "metric.ts" && f !== "registry.ts");
  assert.equal(files.length, BUILT_IN_METRICS.all.length + BUILT_IN_METRICS.atK.length, `one file per registered metric: ${files.join(", ")}`);
  const registry = readFileSync("src/domain/metric-registry/registry.ts", "utf8");
  for (const file of files) assert.match(registry, new RegExp(`from "\\./${file.replace(".ts", ".js")}"`), `${file} is registered`);
  assert.equal(new Set(BUILT_IN_METRICS.all.map((m) => m.key)).size, BUILT_IN_METRICS.all.length, "keys are unique");
  assert.equal(new Set(BUILT_IN_METRICS.all.map((m) => m.field)).size, BUILT_IN_METRICS.all.length, "fields are unique");
  // The metrics at the cut-offs k, in the order each question's rank_cuts and each strategy's rank_metrics list them.
  assert.deepEqual(
    BUILT_IN_METRICS.atK.map((m) => [m.label, m.field, m.perQuestionField]),
    [
      ["Recall@k", "recall", "recall"],
      ["MRR@k", "mrr", "reciprocalRank"],
      ["nDCG@k", "ndcg", "ndcg"],
    ],
  );
});

test("the registry drives the catalogue (the technical report's every-metric table, the README table's check) and the scorecard's columns", () => {
  assert.deepEqual(
    scorecardMetrics(BUILT_IN_METRICS),
    BUILT_IN_METRICS.all.filter((m) => m.scorecardDigits !== undefined).map((m) => [m.key, m.scorecardDigits]),
  );
  // Not every metric is a column: precision, Precision_Ω and cost are reported elsewhere.
  assert.ok(!scorecardMetrics(BUILT_IN_METRICS).some(([key]) => key === "avg_precision" || key === "cost_usd"));
});

test("the registry drives the composite: its default weights, its terms, their factors", () => {
  assert.deepEqual(
    defaultWeights(BUILT_IN_METRICS),
    Object.fromEntries(BUILT_IN_METRICS.composite.map((m) => [m.composite.weight, m.composite.defaultWeight])),
  );
  assert.deepEqual(Object.keys(defaultWeights(BUILT_IN_METRICS)), [
    "answer_similarity",
    "faithfulness",
    "context_relevance",
    "recall",
    "mrr",
    "retrieval_efficiency",
  ]);
  const means = qualityMeans(
    [questionResult({ recall: 0.5, reciprocalRank: 0.25, retrievalEfficiency: 0.2, answerSimilarity: 8, faithfulness: 6, contextRelevance: 4, iou: 0.9 })],
    5,
    BUILT_IN_METRICS,
  );
  const parts = compositeContributions(means, defaultWeights(BUILT_IN_METRICS), BUILT_IN_METRICS.composite)!;
  // IoU is measured but is no composite term; each term is weight × value × factor over the weights' sum (1).
  assert.deepEqual(Object.keys(parts), ["avg_answer_similarity", "avg_faithfulness", "avg_context_relevance", "avg_recall", "mrr", "avg_retrieval_efficiency"]);
  assert.ok(Math.abs(parts.avg_recall! - 0.2 * 0.5 * 10) < 1e-12);
  assert.ok(Math.abs(parts.avg_answer_similarity! - 0.25 * 8) < 1e-12);
  assert.ok(Math.abs(parts.mrr! - 0.1 * 0.25 * 10) < 1e-12);
});

test("the registry drives the quality means: each metric's per-question mean, or its own rule", () => {
  const results = [
    questionResult({ iou: 0.2, hit: 1, faithfulness: 2 }),
    questionResult({ iou: 0.6, hit: 0, faithfulness: 9 }),
    questionResult({ iou: 0.9, hit: 1 }, { error: "failed" }),
  ];
  const means = qualityMeans(results, 5, BUILT_IN_METRICS);
  assert.deepEqual(
    Object.keys(means),
    BUILT_IN_METRICS.quality.map((m) => m.field),
  );
  assert.ok(Math.abs(means.avgIou! - 0.4) < 1e-12, "the failed question is left out");
  assert.equal(means.hitRate, 0.5);
  assert.equal(means.hallucinationRate, 0.5, "one of two judged answers is below the threshold");
  assert.equal(means.avgRecall, null, "no question measured recall");
});

test("a metric the registry marks as needing references says so when no question has one", () => {
  const m = aggregate([questionResult({ answerSimilarity: 7 })], {
    metrics: BUILT_IN_METRICS,
    weights: defaultWeights(BUILT_IN_METRICS),
    hallucinationThreshold: 5,
    costUsd: 0,
    unmeasurable: {},
  });
  for (const metric of BUILT_IN_METRICS.all.filter((x) => x.needsReferences)) {
    assert.equal(m.missing[metric.key], "the questions have no reference excerpts", metric.key);
  }
  assert.notEqual(m.missing.avg_faithfulness, "the questions have no reference excerpts");
});

test("each composition's registry is its own: a metric added to one is not in another, and a clashing one is refused", () => {
  const withShare = createMetricRegistry({ metrics: [chunkHitShare] });
  assert.equal(withShare.definition("chunk_hit_share"), chunkHitShare);
  assert.deepEqual(withShare.all.slice(0, BUILT_IN_METRICS.all.length), [...BUILT_IN_METRICS.all], "after the built-in ones, in their order");
  assert.ok(withShare.quality.includes(chunkHitShare) && withShare.composite.includes(chunkHitShare as never));
  assert.equal(BUILT_IN_METRICS.definition("chunk_hit_share"), undefined, "the built-in registry does not see it");
  assert.equal(createMetricRegistry().definition("chunk_hit_share"), undefined, "nor does a composition made after it");
  assert.throws(() => createMetricRegistry({ metrics: [{ ...chunkHitShare, key: "avg_recall" }] }), /clashes with the registered metric avg_recall \(same key/);
  assert.throws(
    () => createMetricRegistry({ metrics: [chunkHitShare, { ...chunkHitShare, key: "other" }] }),
    /metric other clashes with the registered metric chunk_hit_share/,
  );
  assert.throws(() => (withShare.all as Metric[]).push(chunkHitShare), TypeError, "a registry cannot be changed once made");
});
