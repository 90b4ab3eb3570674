import { test } from "node:test";
import assert from "node:assert/strict";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { registerMetric } from "../../src/domain/metric-registry/registry.js";
import { aggregate } from "../../src/domain/aggregate.js";
import { strategyGaps } from "../../src/domain/measurability.js";
import { defaultWeights, mean, scoreOf } from "../../src/domain/metrics.js";
import { baselineFileText, baselineFromExperiment, parseBaselineFile } from "../../src/services/baseline.js";
import { parseMaxDrop, parseRegressionTargets, regressionOutcomes } from "../../src/services/gates.js";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { chunkHitShare } from "../helpers/chunk-hit-share-metric.js";
import { questionResult } from "../helpers/question-result.js";

const field = (m: object, name: string) => (m as Record<string, unknown>)[name];

test("a metric in one file, registered with one line: per question, mean and interval, composite, reports, baseline gate", async () => {
  const unregister = registerMetric(chunkHitShare);
  const ws = await createWorkspace();
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 12);
    const e = await ws.app.bench({
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "h.json",
      strategies: ["recursive@chunk_size=48", "fixed_size@chunk_size=48"],
      topK: 5,
    });
    const results = await ws.app.experimentResults(e.experimentId);
    const stored = await ws.app.getExperiment(e.experimentId);
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
    const current = baselineFromExperiment(stored, results);
    const file = baselineFileText(current);
    assert.match(file, /"chunk_hit_share": /);
    const reread = parseBaselineFile("base.json", file);
    const scoring = { weights: e.details.weights, hallucinationThreshold: e.details.hallucinationThreshold };
    const gates = [parseRegressionTargets("chunk_hit_share")[0]!];
    const drops = [parseMaxDrop("chunk_hit_share=0")];
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
    unregister();
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
  const scored = () => aggregate(results, { ...options, weights: defaultWeights() });
  const builtIn = scored();
  const inTheComposite = registerMetric(chunkHitShare);
  const entered = scored();
  inTheComposite();
  const outOfTheComposite = registerMetric({ ...chunkHitShare, composite: undefined });
  const left = scored();
  outOfTheComposite();
  assert.ok(entered.compositeContributions!.chunk_hit_share! > 0);
  assert.notEqual(entered.compositeScore, builtIn.compositeScore);
  assert.equal(left.compositeContributions!.chunk_hit_share, undefined);
  assert.equal(field(left, "avgChunkHitShare"), 1 / 3, "still measured and reported");
  assert.equal(left.compositeScore, builtIn.compositeScore, "the composite is the built-in metrics' alone");
  assert.equal(field(builtIn, "avgChunkHitShare"), undefined, "unregistered, it is gone");
});

test("a registered metric's own reason a strategy cannot measure it: reported per strategy, and out of every composite when some can", () => {
  const keywordBlind = registerMetric({ ...chunkHitShare, unmeasurableFor: (s) => (s.retrieval === "keyword" ? "keyword search finds no chunk hits" : null) });
  try {
    const mixed = strategyGaps([
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
    const none = strategyGaps([{ key: "bm25", judge: null, retrieval: "keyword" }]);
    assert.deepEqual([none.leftOut, none.notes], [[], []]);
  } finally {
    keywordBlind();
  }
});
