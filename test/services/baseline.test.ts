import { test } from "node:test";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import type { ExperimentRecord, QuestionMetrics } from "../../src/domain/experiment.js";
import { questionResult } from "../helpers/question-result.js";
import { aggregate } from "../../src/domain/aggregate.js";
import { defaultWeights } from "../../src/domain/scoring.js";
import {
  baselineDeltas,
  compositeDifferences,
  pairStrategy,
  parseBaselineFile,
  baselineFileText,
  questionKeys,
  runDifferences,
  type Baseline,
} from "../../src/services/benchmarking/baseline.js";

const scores = (recall: number): QuestionMetrics => ({
  recall,
  precision: null,
  iou: null,
  retrievalEfficiency: null,
  precisionOmega: null,
  hit: recall > 0 ? 1 : 0,
  reciprocalRank: null,
  contextRelevance: null,
  answerSimilarity: null,
  faithfulness: null,
});

function baseline(questions: string[], overrides: Partial<Baseline> = {}, options: Record<string, number> = { chunk_size: 256 }): Baseline {
  const keys = questionKeys(questions.map((question) => ({ question })));
  return {
    source: "base.json",
    chunkevalVersion: "0.1.0",
    experimentId: "exp_1",
    createdAt: "",
    tags: {},
    questionsHash: questions.join("|"),
    embedder: "hash",
    judge: "embedding",
    generator: "extractive",
    dryRun: false,
    weights: { recall: 1 },
    bestStrategy: "recursive",
    strategies: {
      recursive: {
        options,
        search: { retrieval: "dense", topK: 5 },
        metrics: { composite_score: 5, avg_recall: 0.5, avg_faithfulness: null },
        questions: Object.fromEntries(keys.map((k, i) => [k, { error: null, answered: true, metrics: scores(i % 2) }])),
      },
    },
    ...overrides,
  };
}

test("question keys ignore case and spacing, and tell a question asked twice apart", () => {
  const [a, b, c] = questionKeys([{ question: "What is  the Fee?" }, { question: "what is the fee?" }, { question: "Another" }]);
  assert.equal(b, `${a}#2`);
  assert.notEqual(c, a);
});

test("a baseline file reads back as written", () => {
  const b = baseline(["q1", "q2"]);
  const again = parseBaselineFile("base.json", baselineFileText(b));
  assert.deepEqual(again.strategies, b.strategies);
  assert.equal(again.questionsHash, b.questionsHash);
});

test("pairing says what is not like for like, and refuses what cannot be paired", () => {
  const before = baseline(["q1", "q2", "q3"]);
  const now = baseline(["q2", "q3", "q4", "q5"], { embedder: "use", questionsHash: "other" }, { chunk_size: 512 });
  assert.deepEqual(runDifferences(now, before), [
    "the questions differ from the baseline's (another question set hash)",
    "the embedder differs: hash in the baseline, use now",
  ]);
  const pairing = pairStrategy(BUILT_IN_METRICS, now, before, "recursive", false);
  assert.ok(!("refused" in pairing));
  assert.equal(pairing.current.length, 2);
  assert.deepEqual(pairing.notes, [
    "recursive: its configuration differs from the baseline's (chunk_size 256 → 512)",
    "paired the 2 questions both runs asked (4 now, 3 in the baseline)",
  ]);
  assert.ok("avg_faithfulness" in pairing.unmeasurable, "a metric one run did not measure drops out of both composites");
  assert.deepEqual(pairStrategy(BUILT_IN_METRICS, baseline(["q9"]), before, "recursive", false), {
    refused: "no question of this run was asked in the baseline (1 now, 3 in the baseline)",
  });
  const renamed = { ...now, strategies: { semantic: now.strategies.recursive! }, bestStrategy: "semantic" };
  assert.match(
    (pairStrategy(BUILT_IN_METRICS, renamed, before, "semantic", true) as { refused: string }).refused,
    /the baseline base\.json has no strategy semantic \(it has recursive\)/,
  );
  const fallback = pairStrategy(BUILT_IN_METRICS, renamed, before, "semantic", false);
  assert.ok(!("refused" in fallback));
  assert.equal(fallback.baselineStrategy, "recursive");
  assert.match(fallback.notes[0]!, /the baseline has no strategy semantic: compared with the baseline's best, recursive/);
});

test("changes against a baseline are the gates' paired ones: over the metrics both runs measured, and none where no question is shared", () => {
  const questions = ["q1", "q2", "q3", "q4", "q5", "q6"];
  const before = baseline(questions, { weights: defaultWeights(BUILT_IN_METRICS) });
  // The same per-question scores, plus context relevance this run measured and the baseline did not.
  const now = baseline(questions, { weights: defaultWeights(BUILT_IN_METRICS) });
  const recursive = now.strategies.recursive!;
  for (const q of Object.values(recursive.questions)) q.metrics = { ...q.metrics, contextRelevance: 9 };
  recursive.metrics = { ...recursive.metrics, composite_score: 7, avg_context_relevance: 9 };
  const scoring = { metrics: BUILT_IN_METRICS, weights: defaultWeights(BUILT_IN_METRICS), hallucinationThreshold: 5 };
  const aggregateMetrics = {
    recursive: aggregate(
      Object.values(recursive.questions).map((q) => questionResult(q.metrics)),
      { ...scoring, costUsd: 0, unmeasurable: {} },
    ),
  };
  const experiment = { strategiesUsed: ["recursive"], aggregateMetrics } as unknown as ExperimentRecord;
  assert.ok(aggregateMetrics.recursive.compositeScore! - 5 > 1, "the stored composites differ by more than a point");
  const deltas = baselineDeltas(experiment, now, before, scoring);
  assert.equal(deltas.recursive!.composite_score, 0, "over the metrics both measured, nothing changed");
  assert.equal(deltas.recursive!.avg_recall, 0);
  assert.deepEqual(compositeDifferences(BUILT_IN_METRICS, now, before), [
    "recursive: the composites hold different metrics (avg_context_relevance in this run's only): its changes are over the metrics both runs measured",
  ]);
  // Other questions altogether: no change is shown at all.
  assert.deepEqual(baselineDeltas(experiment, now, baseline(["other 1", "other 2"], { weights: defaultWeights(BUILT_IN_METRICS) }), scoring), {});
});
