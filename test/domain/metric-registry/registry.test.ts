import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { METRICS, scorecardMetrics } from "../../../src/domain/metric-catalogue.js";
import { compositeContributions, defaultWeights, qualityMeans } from "../../../src/domain/scoring.js";
import { aggregate } from "../../../src/domain/aggregate.js";
import { AT_K_METRIC_REGISTRY, compositeMetrics, METRIC_REGISTRY, qualityMetrics } from "../../../src/domain/metric-registry/registry.js";
import { questionResult } from "../../helpers/question-result.js";

test("every metric is one file under src/domain/metric-registry and one registry line, with a key and field of its own", () => {
  const files = readdirSync("src/domain/metric-registry").filter((f) => f !== "metric.ts" && f !== "registry.ts");
  assert.equal(files.length, METRIC_REGISTRY.length + AT_K_METRIC_REGISTRY.length, `one file per registered metric: ${files.join(", ")}`);
  const registry = readFileSync("src/domain/metric-registry/registry.ts", "utf8");
  for (const file of files) assert.match(registry, new RegExp(`from "\\./${file.replace(".ts", ".js")}"`), `${file} is registered`);
  assert.equal(new Set(METRIC_REGISTRY.map((m) => m.key)).size, METRIC_REGISTRY.length, "keys are unique");
  assert.equal(new Set(METRIC_REGISTRY.map((m) => m.field)).size, METRIC_REGISTRY.length, "fields are unique");
  // The metrics at the cut-offs k, in the order each question's rank_cuts and each strategy's rank_metrics list them.
  assert.deepEqual(
    AT_K_METRIC_REGISTRY.map((m) => [m.label, m.field, m.perQuestionField]),
    [
      ["Recall@k", "recall", "recall"],
      ["MRR@k", "mrr", "reciprocalRank"],
      ["nDCG@k", "ndcg", "ndcg"],
    ],
  );
});

test("the registry drives the catalogue (the technical report's every-metric table, the README table's check) and the scorecard's columns", () => {
  assert.equal(METRICS, METRIC_REGISTRY);
  assert.deepEqual(
    scorecardMetrics(),
    METRIC_REGISTRY.filter((m) => m.scorecardDigits !== undefined).map((m) => [m.key, m.scorecardDigits]),
  );
  // Not every metric is a column: precision, Precision_Ω and cost are reported elsewhere.
  assert.ok(!scorecardMetrics().some(([key]) => key === "avg_precision" || key === "cost_usd"));
});

test("the registry drives the composite: its default weights, its terms, their factors", () => {
  assert.deepEqual(defaultWeights(), Object.fromEntries(compositeMetrics().map((m) => [m.composite.weight, m.composite.defaultWeight])));
  assert.deepEqual(Object.keys(defaultWeights()), ["answer_similarity", "faithfulness", "context_relevance", "recall", "mrr", "retrieval_efficiency"]);
  const means = qualityMeans(
    [questionResult({ recall: 0.5, reciprocalRank: 0.25, retrievalEfficiency: 0.2, answerSimilarity: 8, faithfulness: 6, contextRelevance: 4, iou: 0.9 })],
    5,
  );
  const parts = compositeContributions(means, defaultWeights())!;
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
  const means = qualityMeans(results, 5);
  assert.deepEqual(
    Object.keys(means),
    qualityMetrics().map((m) => m.field),
  );
  assert.ok(Math.abs(means.avgIou! - 0.4) < 1e-12, "the failed question is left out");
  assert.equal(means.hitRate, 0.5);
  assert.equal(means.hallucinationRate, 0.5, "one of two judged answers is below the threshold");
  assert.equal(means.avgRecall, null, "no question measured recall");
});

test("a metric the registry marks as needing references says so when no question has one", () => {
  const m = aggregate([questionResult({ answerSimilarity: 7 })], { weights: defaultWeights(), hallucinationThreshold: 5, costUsd: 0, unmeasurable: {} });
  for (const metric of METRIC_REGISTRY.filter((x) => x.needsReferences)) {
    assert.equal(m.missing[metric.key], "the questions have no reference excerpts", metric.key);
  }
  assert.notEqual(m.missing.avg_faithfulness, "the questions have no reference excerpts");
});
