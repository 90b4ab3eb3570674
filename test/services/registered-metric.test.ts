import { test } from "node:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { createMetricRegistry, type MetricPlugins } from "../../src/domain/metric-registry/registry.js";
import { aggregate } from "../../src/domain/aggregate.js";
import { strategyGaps } from "../../src/domain/measurability.js";
import { mean } from "../../src/domain/metrics.js";
import { bestStrategy, defaultWeights, scoreOf } from "../../src/domain/scoring.js";
import { metricValue } from "../../src/domain/metric-catalogue.js";
import { countTokens } from "../../src/text/tokens.js";
import { baselineFileText, baselineFromExperiment, parseBaselineFile } from "../../src/services/benchmarking/baseline.js";
import { parseMaxDrop, parseRegressionTargets, regressionOutcomes } from "../../src/services/benchmarking/gates.js";
import { createWorkspace, type Workspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { chunkHitShare } from "../helpers/chunk-hit-share-metric.js";
import { questionResult } from "../helpers/question-result.js";
import { precisionAtK } from "../helpers/precision-at-k-metric.js";
import { toWire } from "../../src/transports/serialize.js";
import type { RankCut } from "../../src/domain/experiment.js";

const field = (m: object, name: string) => (m as Record<string, unknown>)[name];

/** A bench of the handbook's first questions: the experiment, its per-question results and the stored record. */
async function benchHandbook(ws: Workspace, strategies: string[], topK: number, questionCount = 12) {
  const e = await ws.app.bench({
    document: { filename: "handbook.docx", bytes: handbookBytes() },
    questions: (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, questionCount),
    questionsSource: "h.json",
    strategies,
    topK,
  });
  return { e, results: await ws.app.experimentResults(e.experimentId), stored: await ws.app.getExperiment(e.experimentId) };
}

/** A workspace whose composition adds `metrics` to the built-in ones. */
const workspaceWith = (metrics: MetricPlugins) => createWorkspace({}, {}, { extensions: { metrics } });

test("a metric in one file, added to a composition: per question, mean and interval, composite, reports, baseline gate", async () => {
  const ws = await workspaceWith({ metrics: [chunkHitShare] });
  try {
    const { e, results, stored } = await benchHandbook(ws, ["recursive@chunk_size=48", "fixed_size@chunk_size=48"], 5);
    for (const s of e.strategiesUsed) {
      // Per question: the metric's own definition, recomputed here from the chunks and references the result stores.
      const values = results[s]!.map((r) => {
        const share = r.retrieved.filter((c) => r.references.some((ref) => c.start < ref.end && ref.start < c.end)).length / r.retrieved.length;
        assert.equal(scoreOf(r.metrics, "chunkHitShare"), share, `${s}: ${r.question}`);
        return share;
      });
      assert.ok(new Set(values).size > 1, `${s}: the share differs between questions (${values.join(", ")})`);
      // The strategy's mean and interval, in the Experiment JSON beside the existing fields (whose names are unchanged).
      const m = e.aggregateMetrics[s]!;
      assert.ok(Math.abs((field(m, "avgChunkHitShare") as number) - mean(values)!) < 1e-12);
      assert.equal(field(stored.aggregateMetrics[s]!, "avgChunkHitShare"), field(m, "avgChunkHitShare"), "stored and read back");
      assert.ok(m.avgRecall !== null && m.hitRate !== null && m.avgIou !== null, "the built-in metrics keep their fields");
      const [low, high] = m.confidenceIntervals.chunk_hit_share!;
      assert.ok(low <= mean(values)! && mean(values)! <= high && low < high, `interval [${low}, ${high}]`);
      // Its entry puts it in the composite: its points are weight × mean × 10 over the measured weights, and they add up.
      const parts = m.compositeContributions!;
      const measuredWeights = Object.keys(parts).reduce((n, key) => n + e.details.weights[key === "mrr" ? "mrr" : key.replace(/^avg_/, "")]!, 0);
      assert.ok(Math.abs(parts.chunk_hit_share! - (0.5 * mean(values)! * 10) / measuredWeights) < 1e-12);
      assert.ok(Math.abs(Object.values(parts).reduce((a, b) => a + b, 0) - m.compositeScore!) < 1e-12);
    }
    assert.equal(e.details.weights.chunk_hit_share, 0.5, "its default weight is among the run's weights");
    assert.equal(stored.experimentId, e.experimentId);

    // Reports: a column of the Markdown scorecard, a row of the technical report's every-metric table and a composite column, each question's line.
    const best = e.bestStrategy;
    const bestShare = field(e.aggregateMetrics[best]!, "avgChunkHitShare") as number;
    const md = (await ws.app.renderReport(e.experimentId, { format: "md" })).body as string;
    const header = md.split("\n").find((line) => line.startsWith("| strategy |"))!;
    assert.match(header, /\| chunk hit share \(0-1 ↑\) \|/);
    const row = md.split("\n").find((line) => line.startsWith(`| ${best} ★`))!;
    const column = header.split("|").findIndex((cell) => cell.includes("chunk hit share"));
    assert.equal(row.split("|")[column]!.trim(), `${(100 * bestShare).toFixed(1)}%`);
    const html = (await ws.app.renderReport(e.experimentId, { format: "html", view: "technical" })).body as string;
    assert.match(html, /<td>chunk_hit_share <small class="muted">0-1 ↑<\/small><\/td><td>0\.\d{3} <small class="muted">\[/);
    assert.match(html, /<th>chunk_hit_share <small class="muted">weight 0.5<\/small><\/th>/);
    // The contributions table finds the metric by its weight's name: only the metrics not measured drop out.
    const contributions = html.slice(html.indexOf("What each metric contributed"), html.indexOf("The points add up"));
    const unmeasured = e.strategiesUsed.reduce(
      (n, s) => n + Object.keys(e.details.weights).length - Object.keys(e.aggregateMetrics[s]!.compositeContributions!).length,
      0,
    );
    assert.equal(contributions.split("dropped out").length - 1, unmeasured);
    assert.match(html, /chunk hit share \d+\.\d% · /, "each question's line shows it");
    assert.match(html, /<th>chunk hit share<br>/, "a column of the scorecard");

    // The baseline gate: a field of the baseline file, a metric --fail-on-regression and --max-drop take.
    const metrics = ws.app.metrics;
    const current = baselineFromExperiment(metrics, stored, results);
    const file = baselineFileText(current);
    assert.match(file, /"chunk_hit_share": /);
    const reread = parseBaselineFile("base.json", file);
    const scoring = { metrics, weights: e.details.weights, hallucinationThreshold: e.details.hallucinationThreshold };
    const gates = [parseRegressionTargets(metrics, "chunk_hit_share")[0]!];
    const drops = [parseMaxDrop(metrics, "chunk_hit_share=0")];
    assert.ok(
      regressionOutcomes(stored, current, reread, gates, drops, scoring).every((o) => o.passed),
      "the same run against itself passes",
    );
    // A baseline whose chunks all overlapped a reference: this run's share dropped, and the gate says so.
    const better = parseBaselineFile("base.json", file.replace(/"chunk_hit_share": [0-9.e-]+/g, '"chunk_hit_share": 1'));
    const [regression, drop] = regressionOutcomes(stored, current, better, gates, drops, scoring);
    assert.equal(drop!.passed, false);
    assert.match(drop!.detail, /chunk_hit_share changed -0\.\d{3} over 12 paired questions \(at most 0 lower allowed\)/);
    assert.equal(regression!.passed, false, regression!.detail);
  } finally {
    await ws.cleanup();
  }
});

test("a configuration file's weights weigh the built-in metrics: a metric the composition added keeps its default weight", async () => {
  const ws = await workspaceWith({ metrics: [chunkHitShare] });
  try {
    writeFileSync(join(ws.dir, "chunkeval.config.json"), JSON.stringify({ weights: { recall: 0.4 } }));
    await ws.reopen();
    assert.equal(ws.app.config.weights?.recall, 0.4, "the file was read");
    const { e } = await benchHandbook(ws, ["recursive@chunk_size=48"], 3, 4);
    assert.equal(e.details.weights.recall, 0.4);
    assert.equal(e.details.weights.chunk_hit_share, 0.5, "its default weight, though the file names only the built-in ones");
    assert.ok(e.aggregateMetrics[e.bestStrategy]!.compositeContributions!.chunk_hit_share !== undefined, "in the composite");
  } finally {
    await ws.cleanup();
  }
});

test("a registered metric enters the composite only when its entry says so", () => {
  const options = { hallucinationThreshold: 5, costUsd: 0, unmeasurable: {} };
  const results = [0.2, 0.9, 0.5].map((recall, i) => {
    const r = questionResult({ recall, reciprocalRank: 1 });
    (r.metrics as unknown as Record<string, number | null>).chunkHitShare = i === 0 ? 1 : 0;
    return r;
  });
  const scored = (metrics = BUILT_IN_METRICS) => aggregate(results, { ...options, metrics, weights: defaultWeights(metrics) });
  const builtIn = scored();
  const entered = scored(createMetricRegistry({ metrics: [chunkHitShare] }));
  const left = scored(createMetricRegistry({ metrics: [{ ...chunkHitShare, composite: undefined }] }));
  assert.ok(entered.compositeContributions!.chunk_hit_share! > 0);
  assert.notEqual(entered.compositeScore, builtIn.compositeScore);
  assert.equal(left.compositeContributions!.chunk_hit_share, undefined);
  assert.equal(field(left, "avgChunkHitShare"), 1 / 3, "still measured and reported");
  assert.equal(left.compositeScore, builtIn.compositeScore, "the composite is the built-in metrics' alone");
  assert.equal(field(builtIn, "avgChunkHitShare"), undefined, "the built-in registry does not have it");
});

test("a registered metric's own reason a strategy cannot measure it: reported per strategy, and out of every composite when some can", () => {
  const keywordBlind = createMetricRegistry({
    metrics: [{ ...chunkHitShare, unmeasurableFor: (s) => (s.retrieval === "keyword" ? "keyword search finds no chunk hits" : null) }],
  });
  {
    const mixed = strategyGaps(keywordBlind, [
      { key: "recursive", judge: null, retrieval: "dense" },
      { key: "bm25", judge: null, retrieval: "keyword" },
    ]);
    assert.deepEqual(mixed.reasons, { recursive: {}, bm25: { chunk_hit_share: "keyword search finds no chunk hits" } });
    assert.deepEqual(mixed.leftOut, ["chunk_hit_share"]);
    assert.deepEqual(mixed.notes, [
      "Chunk hit share is left out of every strategy's composite, so that all are scored on the same metrics: " +
        "it cannot be measured for bm25 (keyword search finds no chunk hits).",
    ]);
    // No strategy can measure it: every composite is scored on the same metrics already.
    const none = strategyGaps(keywordBlind, [{ key: "bm25", judge: null, retrieval: "keyword" }]);
    assert.deepEqual([none.leftOut, none.notes], [[], []]);
  }
});

test("tokens retrieved per question is a registered metric: counted per question, averaged with an interval, listed, out of the composite", async () => {
  const entry = BUILT_IN_METRICS.definition("avg_retrieved_tokens")!;
  assert.deepEqual([entry.field, entry.scale, entry.direction, entry.composite], ["avgRetrievedTokens", "tokens", "lower", undefined]);
  const ws = await createWorkspace();
  try {
    const { e, results, stored } = await benchHandbook(ws, ["recursive@chunk_size=48", "fixed_size@chunk_size=160"], 3);
    const averages: number[] = [];
    for (const s of e.strategiesUsed) {
      // Each question's count, recomputed from the chunks its answer read: the per-question field keeps its place and name.
      const counts = results[s]!.map((r) => {
        assert.equal(
          r.retrievedTokens,
          r.retrieved.reduce((n, c) => n + countTokens(c.text), 0),
          `${s}: ${r.question}`,
        );
        return r.retrievedTokens!;
      });
      const m = e.aggregateMetrics[s]!;
      assert.ok(Math.abs(m.avgRetrievedTokens! - mean(counts)!) < 1e-9, `${s}: the mean of its questions' counts`);
      assert.equal(metricValue(ws.app.metrics, m, "avg_retrieved_tokens"), m.avgRetrievedTokens);
      // Its interval, under the registry's key like every metric's, and under the name the JSON gave it before.
      const interval = m.confidenceIntervals.avg_retrieved_tokens!;
      assert.ok(interval[0] <= m.avgRetrievedTokens! && m.avgRetrievedTokens! <= interval[1] && interval[0] < interval[1], `[${interval}]`);
      assert.deepEqual(m.retrievedTokensInterval, interval);
      assert.deepEqual(stored.aggregateMetrics[s]!.retrievedTokensInterval, interval, "stored and read back");
      assert.equal(m.compositeContributions!.avg_retrieved_tokens, undefined, "not a composite term");
      averages.push(m.avgRetrievedTokens!);
    }
    assert.ok(Math.abs(averages[0]! - averages[1]!) > 50, `48-token and 160-token chunks retrieve different amounts (${averages.join(", ")})`);
    assert.equal(e.details.weights.retrieved_tokens, undefined, "no weight of its own");
    // Listed with the registered metrics: the JSON's definitions and the technical report's every-metric table.
    const json = JSON.stringify((await ws.app.renderReport(e.experimentId, { format: "json" })).body);
    assert.match(json, /"avg_retrieved_tokens":\s*\{\s*"scale":\s*"tokens",\s*"direction":\s*"lower"/);
    const html = (await ws.app.renderReport(e.experimentId, { format: "html", view: "technical" })).body as string;
    assert.match(html, /<td>avg_retrieved_tokens <small class="muted">tokens ↓<\/small><\/td><td>\d+\.\d{3} <small class="muted">\[/);

    // The baseline file keeps each question's count, so the regression gates compare it: a rise is the worse side.
    const metrics = ws.app.metrics;
    const current = baselineFromExperiment(metrics, stored, results);
    const file = baselineFileText(current);
    assert.match(file, /"retrieved_tokens": \d+/);
    const scoring = { metrics, weights: e.details.weights, hallucinationThreshold: e.details.hallucinationThreshold };
    const gates = [parseRegressionTargets(metrics, "avg_retrieved_tokens")[0]!];
    const drops = [parseMaxDrop(metrics, "avg_retrieved_tokens=0")];
    assert.ok(regressionOutcomes(stored, current, parseBaselineFile("b.json", file), gates, drops, scoring).every((o) => o.passed));
    const leaner = parseBaselineFile("b.json", file.replace(/"retrieved_tokens": \d+/g, '"retrieved_tokens": 1'));
    const [regression, drop] = regressionOutcomes(stored, current, leaner, gates, drops, scoring);
    assert.equal(regression!.passed, false, regression!.detail);
    assert.match(drop!.detail, /avg_retrieved_tokens changed \+\d+\.\d{3} over 12 paired questions \(at most 0 higher allowed\)/);
  } finally {
    await ws.cleanup();
  }
});

test("tokens retrieved: failed questions and questions from before it was recorded are left out of the mean; lower breaks composite ties", () => {
  const options = { metrics: BUILT_IN_METRICS, weights: defaultWeights(BUILT_IN_METRICS), hallucinationThreshold: 5, costUsd: 0, unmeasurable: {} };
  const m = aggregate(
    [
      questionResult({ recall: 0.5 }, { retrievedTokens: 100 }),
      questionResult({ recall: 0.5 }, { retrievedTokens: 300 }),
      questionResult({ recall: 0.5 }, { retrievedTokens: 5000, error: "failed" }),
      questionResult({ recall: 0.5 }),
    ],
    options,
  );
  assert.equal(m.avgRetrievedTokens, 200);
  assert.ok(m.retrievedTokensInterval![0] >= 100 && m.retrievedTokensInterval![1] <= 300);
  const none = aggregate([questionResult({ recall: 0.5 })], options);
  assert.equal(none.avgRetrievedTokens, null);
  assert.equal(none.retrievedTokensInterval, null);
  assert.equal(none.missing.avg_retrieved_tokens, "no question produced a value");
  const lean = aggregate([questionResult({ recall: 0.5 }, { retrievedTokens: 100 })], options);
  const heavy = aggregate([questionResult({ recall: 0.5 }, { retrievedTokens: 900 })], options);
  assert.equal(lean.compositeScore, heavy.compositeScore, "the same composite");
  assert.equal(bestStrategy({ heavy, lean }), "lean");
});

test("an at-k metric in one file, registered with one line: each question's rank_cuts, rank_metrics with intervals, the JSON, both reports", async () => {
  const ws = await workspaceWith({ atKMetrics: [precisionAtK] });
  try {
    // top_k 10: the answer's chunks are the whole ranking the cuts score, so the test can recompute every cut from them.
    const { e, results } = await benchHandbook(ws, ["recursive@chunk_size=48", "fixed_size@chunk_size=48"], 10);
    const wire = JSON.parse(JSON.stringify(toWire((await ws.app.renderReport(e.experimentId, { format: "json" })).body)));
    const md = (await ws.app.renderReport(e.experimentId, { format: "md" })).body as string;
    const html = (await ws.app.renderReport(e.experimentId, { format: "html", view: "technical" })).body as string;
    for (const s of e.strategiesUsed) {
      // Per question and cut: the metric's own definition, recomputed here from the chunks and references the result stores.
      const perCut = [1, 3, 5, 10].map((k, i) =>
        results[s]!.map((r, j) => {
          const hits = r.retrieved.slice(0, k).filter((c) => r.references.some((ref) => c.start < ref.end && ref.start < c.end)).length;
          assert.equal(field(r.rankCuts![i]!, "precision"), hits / k, `${s}: ${r.question} at k = ${k}`);
          assert.equal(wire.results[s][j].rank_cuts[i].precision, hits / k, "in the Experiment JSON's rank_cuts");
          return hits / k;
        }),
      );
      assert.ok(new Set(perCut[1]).size > 1, `${s}: Precision@3 differs between questions (${perCut[1]!.join(", ")})`);
      assert.deepEqual(Object.keys(wire.results[s][0].rank_cuts[0]), ["k", "recall", "reciprocal_rank", "ndcg", "precision"], "after the built-in fields");
      // Per cut: the mean over questions and its interval, in the aggregate and the Experiment JSON's rank_metrics.
      const m = e.aggregateMetrics[s]!;
      m.rankMetrics!.forEach((cut, i) => {
        const value = field(cut, "precision") as number;
        assert.ok(Math.abs(value - mean(perCut[i]!)!) < 1e-12, `${s}: Precision@${cut.k} is the mean of its questions'`);
        const [low, high] = field(cut.confidenceIntervals, "precision") as [number, number];
        assert.ok(low <= value && value <= high, `${s}: interval [${low}, ${high}] at k = ${cut.k}`);
        if (new Set(perCut[i]).size > 1) assert.ok(low < high, `${s}: questions that differ leave a spread at k = ${cut.k}`);
        assert.equal(wire.aggregate_metrics[s].rank_metrics[i].precision, value);
        assert.deepEqual(wire.aggregate_metrics[s].rank_metrics[i].confidence_intervals.precision, [low, high]);
      });
      assert.deepEqual(Object.keys(wire.aggregate_metrics[s].rank_metrics[0]), ["k", "recall", "mrr", "ndcg", "precision", "confidence_intervals"]);
      // A row of the ranking table in both reports, its values at k = 1, 3, 5, 10 with their intervals.
      const cells = m.rankMetrics!.map((cut) => {
        const [low, high] = field(cut.confidenceIntervals, "precision") as [number, number];
        return `${(field(cut, "precision") as number).toFixed(3)} [${low.toFixed(3)}, ${high.toFixed(3)}]`;
      });
      const star = s === e.bestStrategy && e.strategiesUsed.length > 1 ? " ★" : "";
      assert.ok(md.includes(`| ${s}${star} | Precision@k | ${cells.join(" | ")} |`), `${s}: its Markdown row`);
      assert.ok(
        html.includes(`<td>Precision@k</td><td>${cells[0]!.replace(" [", ' <small class="muted">[').replace("]", "]</small>")}</td>`),
        `${s}: its HTML row`,
      );
    }
    // Its scale and definition head the table, beside the built-in ones'.
    assert.ok(md.includes(`Precision@k (0-1, higher is better): ${precisionAtK.definition}.`));
    assert.ok(html.includes("Precision@k (0-1, higher is better): the share of the top k ranks holding a chunk"));
    assert.match(md, /Recall@k \(0-1, higher is better\): .*MRR@k \(0-1, higher is better\): .*nDCG@k \(0-1, higher is better\): .*Precision@k/);
  } finally {
    await ws.cleanup();
  }
});

test("an experiment scored before an at-k metric was added shows it as n/a in the ranking table; a composition without it shows none", async () => {
  const ws = await createWorkspace();
  try {
    const { e, results } = await benchHandbook(ws, ["recursive"], 3, 4);
    const cuts: RankCut[] = results.recursive![0]!.rankCuts!;
    assert.deepEqual(Object.keys(cuts[0]!), ["k", "recall", "reciprocalRank", "ndcg"]);
    // The same data directory, composed with the metric (a restart with a plug-in added).
    const withPrecision = await ws.reopen({}, { metrics: { atKMetrics: [precisionAtK] } });
    const md = (await withPrecision.renderReport(e.experimentId, { format: "md" })).body as string;
    // One strategy benchmarked: its rows are not marked as leading anything.
    assert.match(md, /\| recursive \| Precision@k \| n\/a \| n\/a \| n\/a \| n\/a \|/);
    const after = (await (await ws.reopen({}, {})).renderReport(e.experimentId, { format: "md" })).body as string;
    assert.ok(!after.includes("Precision@k"), "composed without it, no row and no definition");
    assert.match(after, /\| recursive \| nDCG@k \| \d\.\d{3} \[/);
    assert.ok(!after.includes("★"), "nothing is marked for one strategy");
  } finally {
    await ws.cleanup();
  }
});
