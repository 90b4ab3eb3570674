import { test } from "node:test";
import assert from "node:assert/strict";
import type { StrategyComparison } from "../../src/domain/experiment.js";
import type { QuestionSetProfile } from "../../src/domain/question-set.js";
import { verdictBasis } from "../../src/domain/verdict-basis.js";

const comparison = (strategy: string, difference: number, significant: boolean): StrategyComparison => ({
  strategy,
  metric: "composite_score",
  difference,
  confidenceInterval: significant ? [difference / 2, difference * 1.5] : [-difference, difference * 2],
  pValue: significant ? 0.001 : 0.4,
  significant,
  questions: 30,
});

const handWritten: QuestionSetProfile = {
  provenance: "hand-written",
  model: null,
  provenanceFrom: "none",
  leak: { average: 0.3, threshold: 0.75, above: 3, measured: 30 },
};

const composites = { a: 8, b: 7.8, c: 5, d: 4 };

test("verdict basis: a lead within noise over the runner-up is no clear winner, naming every strategy the best cannot be separated from", () => {
  const basis = verdictBasis({
    best: "a",
    comparisons: [comparison("b", 0.2, false), comparison("c", 3, true), comparison("d", 4, false)],
    composites,
    retrievalModes: {},
    questionSet: handWritten,
  });
  assert.equal(basis.status, "no_clear_winner");
  // Without the questions each pair would need (older experiments), the sentence says only how many could not tell.
  assert.equal(basis.headline, "No clear winner among a, b and d: 30 questions cannot separate a from the others at 95 %.");
  assert.deepEqual(basis.inseparableFromBest, ["b", "d"]);
  assert.doesNotMatch(basis.headline, /^Use /);
  assert.deepEqual(basis.notes, [
    "Questions: taken as hand-written (no generator recorded in the file); vocabulary leak: average 30 % of a question's content words copied " +
      "from its excerpt; 3 of 30 questions copy ≥ 75 %.",
  ]);

  const allNoise = verdictBasis({ best: "a", comparisons: [comparison("b", 0.2, false)], composites, retrievalModes: {}, questionSet: null });
  assert.equal(allNoise.headline, "No clear winner among a and b: 30 questions cannot separate a from b at 95 %.");
  // How many questions would: the most any inseparable pair needs, rounded as the verdict's estimates are.
  const needing = (strategy: string, questionsNeeded: number | null) => ({ ...comparison(strategy, 0.2, false), questionsNeeded });
  const more = verdictBasis({
    best: "a",
    comparisons: [needing("b", 390), needing("d", 80), comparison("c", 3, true)],
    composites,
    retrievalModes: {},
    questionSet: null,
  });
  assert.equal(more.headline, "No clear winner among a, b and d: 30 questions cannot separate a from the others at 95 %; about 390 would likely (80 % power).");
  assert.doesNotMatch(more.headline, /\bc\b/, "a strategy the best beats significantly is not among the tied");
  const unreachable = verdictBasis({ best: "a", comparisons: [needing("b", 390), needing("d", null)], composites, retrievalModes: {}, questionSet: null });
  assert.equal(
    unreachable.headline,
    "No clear winner among a, b and d: 30 questions cannot separate a from the others at 95 %.",
    "no number when a pair has none",
  );
  // Negative controls paired too: the sentence counts the answerable questions, and says so.
  const withNegatives = verdictBasis({
    best: "a",
    comparisons: [{ ...comparison("b", 0.2, false), questions: 30, answerableQuestions: 24 }],
    composites,
    retrievalModes: {},
    questionSet: null,
  });
  assert.equal(withNegatives.headline, "No clear winner among a and b: 24 answerable questions cannot separate a from b at 95 %.");
  // A sweep that ties many variants names the highest and counts the rest.
  const many = verdictBasis({
    best: "a",
    comparisons: Array.from({ length: 29 }, (_, i) => comparison(`v${i}`, 0.1, false)),
    composites,
    retrievalModes: {},
    questionSet: null,
  });
  assert.equal(many.headline, "No clear winner among a and 29 others: 30 questions cannot separate a from the others at 95 %.");
  assert.deepEqual(allNoise.notes, [], "an experiment from before the question set was profiled says nothing about it");
});

test("verdict basis: a recommendation only when every lead is significant; nothing to recommend without a rival or a score", () => {
  const clear = verdictBasis({
    best: "a",
    comparisons: [comparison("b", 0.9, true), comparison("c", 3, true)],
    composites,
    retrievalModes: {},
    questionSet: handWritten,
  });
  assert.equal(clear.status, "recommendation");
  assert.equal(clear.headline, "Use a: it scores higher than each other strategy, significantly at 95 % in each comparison (30 questions).");
  assert.deepEqual(clear.inseparableFromBest, []);
  const alone = verdictBasis({ best: "a", comparisons: [], composites, retrievalModes: {}, questionSet: handWritten });
  assert.equal(alone.status, "single_strategy");
  const unscored = verdictBasis({ best: "a", comparisons: [], composites: { a: null }, retrievalModes: {}, questionSet: handWritten });
  assert.equal(unscored.status, "not_scored");
});

test("verdict basis: template or copied questions make even significant leads a smoke test", () => {
  const template: QuestionSetProfile = { ...handWritten, provenance: "template", provenanceFrom: "metadata" };
  const basis = verdictBasis({ best: "a", comparisons: [comparison("b", 0.9, true)], composites, retrievalModes: {}, questionSet: template });
  assert.equal(basis.status, "smoke_test");
  assert.match(basis.headline, /^Smoke test, not a recommendation: the questions are template questions, .*\. a scored highest\.$/);
  assert.match(basis.notes[0]!, /^Questions: template \(offline generator\); vocabulary leak/);
  const copied: QuestionSetProfile = { ...handWritten, leak: { average: 0.8, threshold: 0.75, above: 20, measured: 30 } };
  const leaky = verdictBasis({ best: "a", comparisons: [comparison("b", 0.2, false)], composites, retrievalModes: {}, questionSet: copied });
  assert.equal(leaky.status, "smoke_test");
  assert.match(
    leaky.headline,
    /^Smoke test, not a recommendation: 20 of 30 questions copy ≥ 75 % of their content words .*\. a scored highest, not separable at 95 % from b\.$/,
  );
  // One strategy under a smoke test is not "highest" of anything.
  const alone = verdictBasis({ best: "a", comparisons: [], composites, retrievalModes: {}, questionSet: copied });
  assert.match(alone.headline, /^Smoke test, not a recommendation: .*\. a was the only strategy benchmarked\.$/);
  // Just under half copying is not a smoke test.
  const some: QuestionSetProfile = { ...handWritten, leak: { average: 0.6, threshold: 0.75, above: 14, measured: 30 } };
  assert.equal(
    verdictBasis({ best: "a", comparisons: [comparison("b", 0.9, true)], composites, retrievalModes: {}, questionSet: some }).status,
    "recommendation",
  );
});

test("verdict basis: a lead across retrieval modes is split where the run has the same chunks searched the other way", () => {
  const modes = { "recursive@retrieval=keyword": "keyword", recursive: "dense", semantic: "dense", fixed_size: "dense" } as const;
  const scores = { "recursive@retrieval=keyword": 8.44, recursive: 6.9, semantic: 6.49, fixed_size: 5 };
  const split = verdictBasis({
    best: "recursive@retrieval=keyword",
    comparisons: [comparison("recursive", 1.54, true), comparison("semantic", 1.95, true), comparison("fixed_size", 3.44, true)],
    composites: scores,
    retrievalModes: modes,
    questionSet: null,
  });
  assert.deepEqual(split.notes, [
    "Retrieval modes differ: keyword (recursive@retrieval=keyword); dense (recursive, semantic and fixed_size). " +
      "A lead between strategies of different modes mixes chunking and retrieval mode.",
    "recursive@retrieval=keyword (keyword) leads recursive (dense) by 1.54: they are the same chunks, so the whole lead is the retrieval mode's.",
  ]);

  // Without its own chunks searched densely, the rival's chunks searched by keyword split the lead.
  const { recursive: _dropped, ...withoutDense } = scores;
  const rivalOtherWay = verdictBasis({
    best: "recursive@retrieval=keyword",
    comparisons: [comparison("semantic", 1.95, true), comparison("semantic@retrieval=keyword", 0.4, false)],
    composites: { ...withoutDense, "semantic@retrieval=keyword": 8.04 },
    retrievalModes: { "recursive@retrieval=keyword": "keyword", semantic: "dense", "semantic@retrieval=keyword": "keyword" },
    questionSet: null,
  });
  assert.equal(
    rivalOtherWay.notes[1],
    "recursive@retrieval=keyword (keyword) leads semantic (dense) by 1.95: " +
      "searching semantic's chunks by keyword instead (semantic@retrieval=keyword) scores 8.04, " +
      "so the retrieval mode accounts for 1.55 of the lead and the chunking for 0.40.",
  );

  // A part against the lead says whom it favours.
  const against = verdictBasis({
    best: "contextual_retrieval",
    comparisons: [comparison("structure", 0.14, false), comparison("contextual_retrieval@retrieval=dense", 0.25, true)],
    composites: { contextual_retrieval: 8.0, "contextual_retrieval@retrieval=dense": 7.75, structure: 7.86 },
    retrievalModes: { contextual_retrieval: "hybrid", "contextual_retrieval@retrieval=dense": "dense", structure: "dense" },
    questionSet: null,
  });
  assert.equal(
    against.notes[1],
    "contextual_retrieval (hybrid) leads structure (dense) by 0.14: searching contextual_retrieval's chunks by dense instead " +
      "(contextual_retrieval@retrieval=dense) scores 7.75, so the retrieval mode accounts for 0.25 of the lead and the chunking for -0.11 " +
      "(searched the same way, structure's chunks score higher).",
  );

  // Neither: the note says the lead mixes both, and which variants would separate them.
  const mixed = verdictBasis({
    best: "contextual_retrieval",
    comparisons: [comparison("recursive", 0.5, false)],
    composites: { contextual_retrieval: 7, recursive: 6.5 },
    retrievalModes: { contextual_retrieval: "hybrid", recursive: "dense" },
    questionSet: null,
  });
  assert.equal(
    mixed.notes[1],
    "contextual_retrieval (hybrid) leads recursive (dense) by 0.50, a lead that mixes chunking and retrieval mode; " +
      "to separate them, benchmark the same chunks searched the other way too " +
      "(add contextual_retrieval@retrieval=dense and recursive@retrieval=hybrid to --strategies).",
  );
  // One mode: nothing to say.
  assert.deepEqual(verdictBasis({ best: "a", comparisons: [], composites, retrievalModes: { a: "dense", b: "dense" }, questionSet: null }).notes, []);
});

test("verdict basis: no Recommendation when a chunk warning says the comparison cannot tell the best or its runner-up apart", () => {
  const allClear = [comparison("b", 0.2, true), comparison("c", 3, true), comparison("d", 4, true)];
  const input = { best: "a", comparisons: allClear, composites, retrievalModes: {}, questionSet: handWritten };
  assert.equal(verdictBasis(input).status, "recommendation", "without warnings every significant lead makes a recommendation");
  for (const concerned of [["a"], ["b"]]) {
    const basis = verdictBasis({ ...input, cannotTellApart: concerned });
    assert.equal(basis.status, "no_clear_winner");
    assert.doesNotMatch(basis.headline, /^Use /);
    assert.equal(
      basis.headline,
      `No recommendation: a chunk warning says this comparison cannot tell ${concerned[0]} apart from the others, ` +
        "so a's significant lead says nothing of its chunking.",
    );
  }
  assert.equal(verdictBasis({ ...input, cannotTellApart: ["d"] }).status, "recommendation", "a warning about a strategy far behind leaves the recommendation");
});
