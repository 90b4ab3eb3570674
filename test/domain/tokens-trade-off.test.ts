import { test } from "node:test";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import { aggregate } from "../../src/domain/aggregate.js";
import { bestStrategy, defaultWeights } from "../../src/domain/scoring.js";
import { retrievedTokensTradeOff } from "../../src/domain/tokens-trade-off.js";
import { questionResult } from "../helpers/question-result.js";

const options = { metrics: BUILT_IN_METRICS, weights: defaultWeights(BUILT_IN_METRICS), hallucinationThreshold: 5, costUsd: 0, unmeasurable: {} };

const result = (recall: number, retrievedTokens: number) => questionResult({ recall, reciprocalRank: recall }, { retrievedTokens });

/** 20 questions: recall alternates 1 / 0.5 / 0 / 1 / … with `flip` questions moved up, at `tokens` per question. */
const run = (tokens: number, flip = 0) => Array.from({ length: 20 }, (_, i) => result(i < flip ? 1 : [1, 0.5, 0][i % 3]!, tokens));

test("trade-off line: recall not shown to differ, and which of them retrieves fewer tokens per question", () => {
  const results = { fixed_size: run(2107, 2), recursive: run(1378) };
  const aggregates = Object.fromEntries(Object.entries(results).map(([s, list]) => [s, aggregate(list, options)]));
  assert.equal(bestStrategy(aggregates), "fixed_size", "two more questions found: the higher composite");
  // Recall: 7 questions at 1, 7 at 0.5, 6 at 0 = 10.5 / 20 = 0.525; moving question 1 from 0.5 to 1 gives 11 / 20 = 0.55.
  assert.equal(
    retrievedTokensTradeOff("fixed_size", results, aggregates),
    "Fewer tokens, recall not shown to differ: recursive retrieves 1,378 tokens per question against 2,107 for fixed_size " +
      "(recall 0.53 vs 0.55 over 20 questions, within noise at 95 %).",
  );
  // The best is also the leanest: it is named against the next leanest.
  const leanBest = { fixed_size: run(900, 2), recursive: run(1378) };
  const leanAggregates = Object.fromEntries(Object.entries(leanBest).map(([s, list]) => [s, aggregate(list, options)]));
  assert.equal(
    retrievedTokensTradeOff("fixed_size", leanBest, leanAggregates),
    "Fewer tokens, recall not shown to differ: fixed_size retrieves 900 tokens per question against 1,378 for recursive " +
      `(recall ${leanAggregates.fixed_size!.avgRecall!.toFixed(2)} vs ${leanAggregates.recursive!.avgRecall!.toFixed(2)} for recursive ` +
      "over 20 questions, within noise at 95 %).",
  );
});

test("no trade-off line when recall differs significantly, or the amounts of text are about the same", () => {
  const apart = { good: run(2000, 20), poor: Array.from({ length: 20 }, () => result(0, 500)) };
  const apartAggregates = Object.fromEntries(Object.entries(apart).map(([s, list]) => [s, aggregate(list, options)]));
  assert.equal(retrievedTokensTradeOff("good", apart, apartAggregates), "", "a significant recall gap gets no line");
  const same = { a: run(1000, 2), b: run(1020) };
  const sameAggregates = Object.fromEntries(Object.entries(same).map(([s, list]) => [s, aggregate(list, options)]));
  assert.equal(retrievedTokensTradeOff("a", same, sameAggregates), "", "2 % fewer tokens is not worth a line");
});

test("tie-break after the composite: the strategy retrieving fewer tokens per question", () => {
  const lean = aggregate(run(800), options);
  const heavy = aggregate(run(1600), options);
  assert.equal(lean.compositeScore, heavy.compositeScore);
  assert.equal(bestStrategy({ a_heavy: heavy, b_lean: lean }), "b_lean", "same composite: fewer tokens wins before the name");
  assert.equal(
    bestStrategy({ a_heavy: { ...heavy, compositeScore: heavy.compositeScore! + 0.1 }, b_lean: lean }),
    "a_heavy",
    "the composite still decides first",
  );
});

test("no trade-off line with fewer answerable questions than the minimum: nothing can be shown on them", () => {
  const few = { good: Array.from({ length: 6 }, () => result(1, 2000)), poor: Array.from({ length: 6 }, (_, i) => result(i % 2, 500)) };
  const padded = Object.fromEntries(
    Object.entries(few).map(([s, list]) => [s, [...list, ...Array.from({ length: 8 }, () => questionResult({}, { answerable: false, retrievedTokens: 500 }))]]),
  );
  const aggregates = Object.fromEntries(Object.entries(padded).map(([s, list]) => [s, aggregate(list, options)]));
  assert.equal(retrievedTokensTradeOff("good", padded, aggregates), "", "6 answerable questions and 8 negative controls");
  const enough = { good: Array.from({ length: 12 }, () => result(1, 2000)), poor: Array.from({ length: 12 }, (_, i) => result(i % 6 === 0 ? 0 : 1, 500)) };
  const enoughAggregates = Object.fromEntries(Object.entries(enough).map(([s, list]) => [s, aggregate(list, options)]));
  assert.match(
    retrievedTokensTradeOff("good", enough, enoughAggregates),
    /^Fewer tokens, recall not shown to differ: poor retrieves 500 tokens per question against 2,000 for good/,
  );
});

test("a wide recall gap within noise is said as not shown to differ, with both figures and the questions, never as similar", () => {
  // 12 questions: recall 0.75 against 0.42, a gap the paired bootstrap cannot separate on so few.
  const wide = {
    good: Array.from({ length: 12 }, (_, i) => result(i % 4 === 0 ? 0 : 1, 2000)),
    poor: Array.from({ length: 12 }, (_, i) => result([1, 0, 1, 0, 0, 1][i % 6]! === 1 && i % 4 !== 1 ? 1 : i % 3 === 0 ? 0.5 : 0, 500)),
  };
  const aggregates = Object.fromEntries(Object.entries(wide).map(([s, list]) => [s, aggregate(list, options)]));
  const line = retrievedTokensTradeOff("good", wide, aggregates);
  const [good, poor] = [aggregates.good!.avgRecall!, aggregates.poor!.avgRecall!];
  assert.ok(good - poor >= 0.2, `the gap is wide: ${good} against ${poor}`);
  assert.equal(
    line,
    `Fewer tokens, recall not shown to differ: poor retrieves 500 tokens per question against 2,000 for good ` +
      `(recall ${poor.toFixed(2)} vs ${good.toFixed(2)} over 12 questions, within noise at 95 %).`,
  );
  assert.doesNotMatch(line, /similar/i);
});
