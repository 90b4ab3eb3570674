import { test } from "node:test";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { aggregate, compareWithBest, verdictSentence } from "../../src/domain/aggregate.js";
import { fastestLine } from "../../src/reports/render.js";
import { intersectionLength, precisionOmega, retrievalEfficiency, retrievalMetrics, unionSpans } from "../../src/domain/metrics.js";
import { bestStrategy, compositeContributions, compositeScore, defaultWeights } from "../../src/domain/scoring.js";
import type { AggregateMetrics, QuestionResult } from "../../src/domain/experiment.js";
import { questionResult } from "../helpers/question-result.js";

const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} != ${expected}`);

test("span metrics follow Chroma's definitions on a simple case", () => {
  // reference 100..200 (100 chars); retrieved 400..450 then 150..250 (50 + 100 = 150 chars); found 150..200 = 50.
  const m = retrievalMetrics(
    [{ start: 100, end: 200 }],
    [
      { start: 400, end: 450 },
      { start: 150, end: 250 },
    ],
  );
  close(m.recall, 50 / 100, "recall");
  close(m.precision, 50 / 150, "precision");
  // IoU denominator: retrieved chars (150) + reference chars no chunk covers (100..150 = 50).
  close(m.iou, 50 / (150 + 50), "iou");
  assert.equal(m.hit, 1, "the second chunk covers half the reference");
  assert.equal(m.reciprocalRank, 0.5);
  const miss = retrievalMetrics([{ start: 0, end: 10 }], [{ start: 8, end: 40 }]);
  assert.deepEqual([miss.hit, miss.reciprocalRank], [0, 0], "20% coverage is not a hit");
  close(miss.recall, 0.2, "partial recall");
});

test("overlapping chunks: numerator is a union, precision and IoU denominators are sums (Chroma)", () => {
  // Chunks 0..60 and 40..100 overlap on 40..60; reference 30..70 (40 chars).
  const m = retrievalMetrics(
    [{ start: 30, end: 70 }],
    [
      { start: 0, end: 60 },
      { start: 40, end: 100 },
    ],
  );
  // Intersections 30..60 and 40..70, union 30..70 = 40 chars: counted once.
  close(m.recall, 40 / 40, "recall");
  // Sum of chunk lengths 60 + 60 = 120, not the union's 100: retrieving text twice costs precision.
  close(m.precision, 40 / 120, "precision");
  close(m.iou, 40 / (120 + 0), "iou");
  // The same chunk retrieved twice.
  const twice = retrievalMetrics(
    [{ start: 0, end: 10 }],
    [
      { start: 0, end: 10 },
      { start: 0, end: 10 },
    ],
  );
  assert.deepEqual([twice.recall, twice.precision, twice.iou], [1, 0.5, 0.5]);
});

test("overlapping references: recall's denominator sums them, IoU adds each one's missed part (Chroma)", () => {
  // References 0..50 and 25..75 (overlap 25..50); one chunk 40..60.
  const refs = [
    { start: 0, end: 50 },
    { start: 25, end: 75 },
  ];
  const m = retrievalMetrics(refs, [{ start: 40, end: 60 }]);
  // Intersections 40..50 and 40..60 -> union 40..60 = 20. Recall denominator 50 + 50 = 100.
  close(m.recall, 20 / 100, "recall");
  close(m.precision, 20 / 20, "precision");
  // Missed per reference: 0..50 misses 40 chars (0..40), 25..75 misses 30 (25..40 and 60..75).
  close(m.iou, 20 / (20 + 40 + 30), "iou");
  // Nothing retrieved: everything 0, nothing divides by zero.
  assert.deepEqual(retrievalMetrics(refs, []), { recall: 0, precision: 0, iou: 0, hit: 0, reciprocalRank: 0 });
});

test("overlapping chunks and overlapping references together, one reference running past every chunk", () => {
  // Chunks 0..60 and 40..100 (overlap 40..60); references 30..70 and 50..130 (overlap 50..70).
  const m = retrievalMetrics(
    [
      { start: 30, end: 70 },
      { start: 50, end: 130 },
    ],
    [
      { start: 0, end: 60 },
      { start: 40, end: 100 },
    ],
  );
  // Intersections 30..60, 50..60, 40..70, 50..100 -> union 30..100 = 70 characters.
  close(m.recall, 70 / (40 + 80), "recall: summed reference lengths");
  close(m.precision, 70 / (60 + 60), "precision: summed chunk lengths");
  // Missed per reference: 30..70 none, 50..130 loses 100..130 = 30.
  close(m.iou, 70 / (120 + 30), "iou");
});

test("Precision_Ω: the oracle's precision over every chunk touching the references", () => {
  // A reference running past the last chunk it touches: the denominator's union takes in its
  // uncovered part (chunk 200..300 and reference 250..350 -> 200..350), so 50 / 150, not 50 / 100.
  close(
    precisionOmega(
      [{ start: 250, end: 350 }],
      [
        { start: 0, end: 100 },
        { start: 100, end: 200 },
        { start: 200, end: 300 },
      ],
    ),
    50 / 150,
    "reference past the chunks",
  );
  const chunks = [
    { start: 0, end: 100 },
    { start: 100, end: 200 },
    { start: 200, end: 300 },
  ];
  // Reference 150..180 inside chunk 100..200: 30 / 100.
  close(precisionOmega([{ start: 150, end: 180 }], chunks), 30 / 100, "one chunk");
  // Reference 90..110 straddles two chunks: 20 / 200.
  close(precisionOmega([{ start: 90, end: 110 }], chunks), 20 / 200, "straddling");
  // Overlapping references 150..180 and 170..210: union of intersections 150..210 = 60; chunks 100..300 = 200.
  close(
    precisionOmega(
      [
        { start: 150, end: 180 },
        { start: 170, end: 210 },
      ],
      chunks,
    ),
    60 / 200,
    "overlapping references",
  );
  // Overlapping chunks use unions too: chunks 0..120 and 80..200, reference 100..110 -> union 0..200.
  close(
    precisionOmega(
      [{ start: 100, end: 110 }],
      [
        { start: 0, end: 120 },
        { start: 80, end: 200 },
      ],
    ),
    10 / 200,
    "overlapping chunks",
  );
  // A chunker that carves exactly the excerpt scores 1; text the chunks do not cover scores 0.
  assert.equal(precisionOmega([{ start: 100, end: 200 }], chunks), 1);
  assert.equal(precisionOmega([{ start: 400, end: 410 }], chunks), 0);
});

test("retrieval efficiency: exact retrieval scores 1, the whole document 0, each halving of extra text one equal step", () => {
  const reference = [{ start: 0, end: 100 }];
  const documentLength = 100 * 2 ** 8;
  assert.equal(retrievalEfficiency(1, reference, documentLength), 1);
  close(retrievalEfficiency(100 / documentLength, reference, documentLength), 0, "whole document");
  assert.equal(retrievalEfficiency(0, reference, documentLength), 0);
  // IoU 1/4 (four times the reference retrieved) and 1/8: one step of 1/8 apart, as are 1/2 and 1/4.
  close(retrievalEfficiency(1 / 4, reference, documentLength) - retrievalEfficiency(1 / 8, reference, documentLength), 1 / 8, "a halving");
  close(retrievalEfficiency(1 / 2, reference, documentLength) - retrievalEfficiency(1 / 4, reference, documentLength), 1 / 8, "another halving");
});

test("span helpers", () => {
  assert.deepEqual(
    unionSpans([
      { start: 5, end: 10 },
      { start: 0, end: 6 },
      { start: 20, end: 30 },
    ]),
    [
      { start: 0, end: 10 },
      { start: 20, end: 30 },
    ],
  );
  assert.equal(
    intersectionLength(
      [{ start: 0, end: 10 }],
      [
        { start: 5, end: 7 },
        { start: 9, end: 20 },
      ],
    ),
    3,
  );
});

function result(metrics: Partial<QuestionResult["metrics"]>, extra: Partial<QuestionResult> = {}): QuestionResult {
  return questionResult(metrics, { answerTokens: { promptTokens: 10, completionTokens: 2, totalTokens: 12 }, ...extra });
}

const options = { metrics: BUILT_IN_METRICS, weights: defaultWeights(BUILT_IN_METRICS), hallucinationThreshold: 5, costUsd: 0, unmeasurable: {} };

test("aggregation averages what was measured, counts failures, and says why a metric is missing", () => {
  const a = aggregate(
    [
      result({ faithfulness: 9, contextRelevance: 4, recall: 1 }),
      result({ faithfulness: 3, contextRelevance: 6, recall: 0.5 }),
      result({ faithfulness: null }, { answered: false }),
      result({ faithfulness: 10 }, { error: "judge reply could not be parsed" }),
    ],
    options,
  );
  assert.equal(a.totalQuestions, 4);
  assert.equal(a.failedQuestions, 1);
  assert.equal(a.avgFaithfulness, 6);
  assert.equal(a.hallucinationRate, 0.5, "one of the two answered, judged questions is under 5");
  assert.equal(a.avgAnswerSimilarity, null);
  assert.equal(a.missing.avg_answer_similarity, "the questions have neither an expected answer nor reference excerpts");
  assert.equal(a.avgRecall, 0.75);
  assert.equal(a.totalLatencySeconds, 4);
  assert.equal(a.tokens.totalTokens, 48);
  // Composite over the metrics that exist: faithfulness 6, context relevance 5, recall 7.5.
  const expected = (0.2 * 6 + 0.15 * 5 + 0.2 * 7.5) / 0.55;
  close(a.compositeScore!, expected, "composite");
  const parts = a.compositeContributions!;
  close(
    Object.values(parts).reduce((x, y) => x + y, 0),
    a.compositeScore!,
    "contributions add up",
  );
  close(parts.avg_recall!, (0.2 * 7.5) / 0.55, "recall's contribution");
  assert.ok(a.confidenceIntervals.avg_faithfulness, "a measured metric has an interval");
  assert.equal(a.confidenceIntervals.avg_answer_similarity, undefined, "a missing metric has none");
});

test("a metric the configuration cannot measure is null with the reason, and leaves the composite", () => {
  const reason = "answers are copied from the retrieved context";
  const a = aggregate([result({ faithfulness: 10, recall: 0.5 }), result({ faithfulness: 10, recall: 1 })], {
    ...options,
    unmeasurable: { avg_faithfulness: reason, hallucination_rate: reason },
  });
  assert.equal(a.avgFaithfulness, null);
  assert.equal(a.hallucinationRate, null);
  assert.equal(a.missing.avg_faithfulness, reason);
  assert.equal(a.missing.hallucination_rate, reason);
  close(a.compositeScore!, 7.5, "composite is recall alone");
  assert.equal(compositeContributions(a, defaultWeights(BUILT_IN_METRICS), BUILT_IN_METRICS.composite)!.avg_faithfulness, undefined);
});

test("confidence intervals are seeded: the same inputs give the same numbers, and the interval holds the mean", () => {
  const list = Array.from({ length: 20 }, (_, i) => result({ recall: (i % 5) / 4, contextRelevance: i % 10 }));
  const a = aggregate(list, options);
  const b = aggregate(list, options);
  assert.deepEqual(a.confidenceIntervals, b.confidenceIntervals);
  const [lo, hi] = a.confidenceIntervals.avg_recall!;
  assert.ok(lo < a.avgRecall! && a.avgRecall! < hi, `${lo} < ${a.avgRecall} < ${hi}`);
  assert.ok(hi - lo > 0.1, "twenty spread-out values leave real uncertainty");
  const constant = aggregate(
    Array.from({ length: 10 }, () => result({ recall: 1 })),
    options,
  );
  assert.deepEqual(constant.confidenceIntervals.avg_recall, [1, 1], "no spread, no uncertainty");
});

test("paired comparison: a consistent lead is significant, a lead of two questions in 28 is not", () => {
  const questions = 28;
  const base = Array.from({ length: questions }, (_, i) => result({ recall: i % 3 === 0 ? 0 : 1, reciprocalRank: i % 3 === 0 ? 0 : 1 }));
  const better = base.map((r) => result({ recall: Math.min(1, r.metrics.recall! + 0.5), reciprocalRank: 1 }));
  const twoMore = base.map((r, i) => (i === 0 || i === 3 ? result({ recall: 1, reciprocalRank: 1 }) : r));
  const clear = compareWithBest({ better, base }, "better", options)[0]!;
  assert.equal(clear.significant, true);
  assert.ok(clear.pValue! < 0.05);
  const noisy = compareWithBest({ twoMore, base }, "twoMore", options)[0]!;
  assert.ok(noisy.difference! > 0, "twoMore does lead");
  assert.equal(noisy.significant, false, "but two questions of 28 are within noise");
  assert.ok(noisy.confidenceInterval![0] <= 0);
  const tie = compareWithBest({ a: base, b: base }, "a", options)[0]!;
  assert.deepEqual([tie.difference, tie.significant, tie.pValue], [0, false, 1]);
  const noisyVerdict = verdictSentence("twoMore", 9, [noisy]);
  assert.ok(noisyVerdict.startsWith("twoMore scored highest; its lead over base is not significant at 95 % with 28 questions (within noise); "), noisyVerdict);
  assert.match(noisyVerdict, /; about \d+ questions would tell it from base \(at 95 % with 80 % power/);
  assert.ok(noisy.questionsNeeded! > 28, `a lead that 28 questions cannot call needs more than 28: ${noisy.questionsNeeded}`);
  assert.equal(verdictSentence("better", 9, [clear]), "better scored highest; its lead over base is significant at 95 %.");
  assert.match(verdictSentence("a", 8, [tie]), /tied exactly with b/);
  // A handful of questions never makes a lead significant, however consistent.
  const few = compareWithBest({ better: better.slice(0, 3), base: base.slice(0, 3) }, "better", options)[0]!;
  assert.deepEqual([few.questions, few.significant], [3, false]);
  assert.match(
    verdictSentence("better", 9, [few]),
    /not significant at 95 % with 3 questions \(within noise; at least 10 answerable questions are needed to tell, negative controls not counted, and 3 were/,
  );
  // Negative controls pad the pairs but do not count toward the minimum: 6 answerable questions and 8 unanswerable ones are too few.
  const unanswerable = (recall: number) => result({ recall, reciprocalRank: recall }, { answerable: false });
  const padded = compareWithBest(
    {
      better: [...better.slice(1, 7), ...Array.from({ length: 8 }, () => unanswerable(1))],
      base: [...base.slice(1, 7), ...Array.from({ length: 8 }, () => unanswerable(0))],
    },
    "better",
    options,
  )[0]!;
  assert.deepEqual([padded.questions, padded.answerableQuestions, padded.significant], [14, 6, false]);
  assert.match(
    verdictSentence("better", 9, [padded]),
    /with 14 questions \(within noise; at least 10 answerable questions are needed to tell, negative controls not counted, and 6 were asked\)/,
  );
  // The questions needed are answerable ones: 28 negative controls scored alike on both sides do not halve the lead's estimate into twice the questions.
  const noisyPadded = compareWithBest(
    {
      twoMore: [...twoMore, ...Array.from({ length: 28 }, () => unanswerable(1))],
      base: [...base, ...Array.from({ length: 28 }, () => unanswerable(1))],
    },
    "twoMore",
    options,
  )[0]!;
  const ratio = noisyPadded.questionsNeeded! / noisy.questionsNeeded!;
  assert.ok(ratio > 0.75 && ratio < 1.33, `answerable questions needed with negatives ${noisyPadded.questionsNeeded}, without ${noisy.questionsNeeded}`);
  assert.match(
    verdictSentence("twoMore", 9, [noisyPadded]),
    /about \d+ answerable questions \(negative controls besides, in the same share\) would tell it from base/,
  );
  const enough = compareWithBest({ better: better.slice(0, 12), base: base.slice(0, 12) }, "better", options)[0]!;
  assert.deepEqual([enough.answerableQuestions, enough.significant], [12, true], "twelve answerable questions can make a consistent lead significant");
  // A run stopped early pairs only the questions both strategies reached, and says so.
  const early = compareWithBest({ twoMore, base: base.slice(0, 20) }, "twoMore", options)[0]!;
  assert.equal(early.questions, 20);
  assert.match(verdictSentence("twoMore", 9, [early]), /not significant at 95 % with 20 questions/);
});

test("composite is missing when nothing could be measured; ties break on reproducible quantities, never latency", () => {
  assert.equal(
    compositeScore(
      { avgAnswerSimilarity: null, avgFaithfulness: null, avgContextRelevance: null, avgRecall: null, mrr: null, avgRetrievalEfficiency: null },
      defaultWeights(BUILT_IN_METRICS),
      BUILT_IN_METRICS.composite,
    ),
    null,
  );
  const base = aggregate([result({ recall: 0.8 })], options);
  const slower: AggregateMetrics = { ...base, totalLatencySeconds: base.totalLatencySeconds + 1, avgLatencySeconds: 9 };
  assert.equal(bestStrategy({ b_slow: slower, a_fast: base }), "a_fast", "same scores: the name decides, not the clock");
  assert.equal(bestStrategy({ a_fast: base, b_slow: slower }), "a_fast");
  assert.equal(bestStrategy({ zeta: { ...base, hallucinationRate: 0.1 }, alpha: { ...base, hallucinationRate: 0.3 } }), "zeta");
  assert.equal(bestStrategy({ zeta: { ...base, avgIou: 0.4 }, alpha: { ...base, avgIou: 0.2 } }), "zeta");
  assert.equal(bestStrategy({ low: { ...base, compositeScore: 2 }, high: { ...base, compositeScore: 7 } }), "high");
});

test("the Metrics page's table (docs/metrics.md) gives every metric of the catalogue with its scale and direction", () => {
  const readme = readFileSync("docs/metrics.md", "utf8");
  const section = readme.slice(readme.indexOf("## Metrics"), readme.indexOf("### Reading the verdict"));
  for (const m of BUILT_IN_METRICS.all) {
    const row = section.split("\n").find((line) => line.startsWith("| ") && line.includes(`\`${m.key}\``));
    assert.ok(row, `${m.key} has a row`);
    const cells = row!.split("|").map((c) => c.trim());
    assert.equal(cells[2], m.scale, `${m.key} scale`);
    assert.equal(cells[3], m.direction, `${m.key} direction`);
  }
  // The metrics at the cut-offs k share the `rank_metrics` row: each is defined there, on its scale and direction.
  const rankRow = section.split("\n").find((line) => line.startsWith("| `rank_metrics` |"))!;
  const rankCells = rankRow.split("|").map((c) => c.trim());
  for (const m of BUILT_IN_METRICS.atK) {
    assert.ok(rankRow.includes(`${m.label}: `), `${m.label} is defined in the rank_metrics row`);
    assert.deepEqual([rankCells[2], rankCells[3]], [m.scale, m.direction], `${m.label} scale and direction`);
  }
});

test("the fastest strategy is named only where the measured latency spread separates it", () => {
  const timed = (seconds: number[]) =>
    aggregate(
      seconds.map((s) => result({ recall: 0.5 }, { latency: { embedSeconds: 0, searchSeconds: s, answerSeconds: 0, totalSeconds: s } })),
      options,
    );
  // Twenty questions each, spread over 0.4 ms around their centre.
  const steady = (centre: number) => timed(Array.from({ length: 20 }, (_, i) => centre + (i % 5) * 0.0001));
  const [a, b, c] = [steady(0.002), steady(0.00205), steady(0.01)];
  assert.ok(a.latencyInterval![0] <= a.avgLatencySeconds! && a.avgLatencySeconds! <= a.latencyInterval![1]);
  assert.ok(a.latencyInterval![1] >= b.latencyInterval![0], "a and b overlap");
  assert.match(
    fastestLine([
      ["a", a],
      ["c", c],
    ])!,
    /^Fastest answers: a \(0\.0022 s per question on average, 95 % interval .*; every other strategy's interval lies above it\)\.$/,
  );
  assert.match(
    fastestLine([
      ["a", a],
      ["b", b],
    ])!,
    /^Answer time does not separate the strategies: their means \(0\.0022-0\.0023 s per question\) lie within/,
  );
  const three = fastestLine([
    ["c", c],
    ["b", b],
    ["a", a],
  ]);
  assert.match(three!, /^Fastest answers: a \(.*\), with b within its measured spread/, "the order the strategies are listed in does not matter");
  // What the first strategy used to carry: one slow question (the shared work) in its twenty. The
  // mean is higher, but the spread covers it: not a ranking.
  const carried = timed([0.02, ...Array.from({ length: 19 }, (_, i) => 0.002 + (i % 5) * 0.0001)]);
  assert.ok(carried.avgLatencySeconds! > a.avgLatencySeconds!);
  assert.match(
    fastestLine([
      ["carried", carried],
      ["a", a],
    ])!,
    /does not separate the strategies/,
  );
  // An experiment from before the spread was recorded names no fastest strategy.
  const { latencyInterval: _dropped, ...old } = c;
  assert.match(
    fastestLine([
      ["a", { ...a, latencyInterval: undefined }],
      ["old", old],
    ])!,
    /no spread was recorded/,
  );
  assert.equal(fastestLine([["a", a]]), undefined, "one strategy: no trade-off");
});
