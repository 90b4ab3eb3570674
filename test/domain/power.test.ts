import { test } from "node:test";
import assert from "node:assert/strict";
import { pairedDifference, verdictSentence } from "../../src/domain/aggregate.js";
import { mean } from "../../src/domain/metrics.js";
import { aboutQuestions, normalQuantile, questionsNeeded, questionsNeededClause, questionsNeededFromBootstrap } from "../../src/domain/power.js";
import type { StrategyComparison } from "../../src/domain/experiment.js";

/** Per-question paired differences with the given mean and (population) standard deviation: half mean + sd, half mean - sd. */
const differences = (count: number, average: number, sd: number) => Array.from({ length: count }, (_, i) => (i % 2 === 0 ? average + sd : average - sd));

test("normal quantiles: the two a 95 % test with 80 % power needs, and symmetry", () => {
  assert.ok(Math.abs(normalQuantile(0.975) - 1.959964) < 1e-6, String(normalQuantile(0.975)));
  assert.ok(Math.abs(normalQuantile(0.8) - 0.841621) < 1e-6, String(normalQuantile(0.8)));
  assert.ok(Math.abs(normalQuantile(0.001) + 3.090232) < 1e-6, "lower tail");
  assert.equal(normalQuantile(0.5), 0);
  assert.throws(() => normalQuantile(1), RangeError);
});

test("questions needed: a lead of 0.4 with spread 1 needs about 50 questions; 0.01 or 0 needs no realistic number", () => {
  // ((1.959964 + 0.841621) · 1 / 0.4)² = 49.06 → 50.
  assert.equal(questionsNeeded(0.4, 1), 50);
  assert.equal(questionsNeeded(-0.4, 1), 50, "the sign of the lead does not matter");
  // ((2.801585 · 1 / 0.01)² = 78,489: past 10,000.
  assert.equal(questionsNeeded(0.01, 1), null);
  assert.equal(questionsNeeded(0, 1), null, "no difference at all: no number of questions tells it");
  assert.equal(questionsNeeded(1, 0.1), 10, "never fewer than the questions any lead needs here");
});

test("questions needed from a paired bootstrap: the standard error over n questions gives back the per-question spread", () => {
  // Twenty questions whose paired differences average 0.4 with spread 1: not significant with 20, about 50 needed.
  const a = differences(20, 0.4, 1);
  const b = a.map(() => 0);
  const change = pairedDifference(a, b, (list) => mean(list));
  assert.equal(change.significant, false, `interval ${change.confidenceInterval}`);
  const needed = questionsNeededFromBootstrap(change.difference, change.standardError, change.questions)!;
  assert.ok(needed >= 40 && needed <= 60, `about 50 questions, got ${needed}`);
  // A lead of 0.01 in a spread of 1: hopeless.
  const c = differences(20, 0.01, 1);
  const hopeless = pairedDifference(
    c,
    c.map(() => 0),
    (list) => mean(list),
  );
  assert.equal(questionsNeededFromBootstrap(hopeless.difference, hopeless.standardError, hopeless.questions), null);
  assert.equal(questionsNeededFromBootstrap(null, 0.1, 20), null, "no difference measured, no estimate");
});

test("the verdict says how many questions would tell the strategies apart instead of stopping at 'within noise'", () => {
  const comparison = (strategy: string, questionsNeeded: number | null): StrategyComparison => ({
    strategy,
    metric: "composite_score",
    difference: 0.3,
    confidenceInterval: [-0.1, 0.7],
    pValue: 0.2,
    significant: false,
    questions: 20,
    questionsNeeded,
  });
  const verdict = verdictSentence("recursive", 7.1, [comparison("fixed_size", 50), comparison("semantic", null), comparison("structure", 1234)]);
  assert.equal(
    verdict,
    "recursive scored highest; its lead over fixed_size, semantic and structure is not significant at 95 % with 20 questions (within noise); " +
      "about 50 questions would tell it from fixed_size; no realistic number of questions would tell it from semantic; " +
      "about 1,300 questions would tell it from structure (at 95 % with 80 % power, from the spread of the paired differences).",
  );
  assert.equal(aboutQuestions(49), "about 49");
  assert.equal(aboutQuestions(10_000), "about 10,000");
  assert.equal(questionsNeededClause([]), "");
});
