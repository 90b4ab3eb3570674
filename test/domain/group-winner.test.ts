// A collection's per-document winner is named only where that document's questions separate it
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
// from every other strategy (issue 39): the pooled verdict's rule, over the group's questions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { groupWinner, winnerThere } from "../../src/domain/group-winner.js";
import { defaultWeights } from "../../src/domain/scoring.js";
import { questionResult } from "../helpers/question-result.js";

const options = { metrics: BUILT_IN_METRICS, weights: defaultWeights(BUILT_IN_METRICS), hallucinationThreshold: 5, unmeasurable: {} };
const result = (recall: number) => questionResult({ recall, reciprocalRank: recall });

test("a group's winner: named where its questions separate the highest from every other strategy, else none", async () => {
  const base = Array.from({ length: 28 }, (_, i) => result(i % 3 === 0 ? 0 : 1));
  const better = base.map((r) => result(Math.min(1, r.metrics.recall! + 0.5)));
  const twoMore = base.map((r, i) => (i === 0 || i === 3 ? result(1) : r));
  assert.equal(await groupWinner({ better, base }, "better", options), "better", "a consistent lead over 28 questions");
  assert.equal(await groupWinner({ twoMore, base }, "twoMore", options), null, "two questions of 28 are within noise");
  const worse = base.map(() => result(0));
  assert.equal(await groupWinner({ better, worse, base }, "better", options), "better", "separated from every other strategy");
  assert.equal(
    await groupWinner({ better, twoMore: better.map((r, i) => (i === 1 ? result(0) : r)), base }, "better", options),
    null,
    "not from the runner-up",
  );
  // One question (the TAMReview "win", interval [6.74, 6.74]) or a handful: never a winner.
  assert.equal(await groupWinner({ better: better.slice(0, 1), base: base.slice(0, 1) }, "better", options), null);
  assert.equal(await groupWinner({ better: better.slice(0, 4), base: base.slice(0, 4) }, "better", options), null);
  // One strategy benchmarked names no winner anywhere.
  assert.equal(await groupWinner({ better }, "better", options), null);
});

test("a group's winner in words: its name, or why none is named", () => {
  assert.equal(winnerThere({ winner: "semantic", questions: 30 }, 3), "semantic");
  assert.equal(winnerThere({ winner: null, questions: 1 }, 3), "cannot tell: 1 question");
  assert.equal(winnerThere({ winner: null, questions: 4 }, 3), "cannot tell: 4 questions");
  assert.equal(winnerThere({ winner: null, questions: 8 }, 1), "none: one strategy benchmarked");
  assert.equal(winnerThere({ questions: 8 }, 3), "not recorded (8 questions)", "an experiment from before winners were recorded");
});
