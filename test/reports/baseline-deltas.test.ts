// A report compared with a baseline shows each score's change beside it, and nothing where the
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
// change could not be computed: never an empty "()" (issue 39, item 4).
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { renderHtmlReport, renderMarkdownReport } from "../../src/reports/render.js";
import { handbookBytes } from "../helpers/documents.js";
import { createWorkspace } from "../helpers/workspace.js";

test("baseline changes: a measured change is shown in brackets, a change that could not be computed shows no empty brackets", async () => {
  const ws = await createWorkspace();
  try {
    const e = await ws.app.bench({
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions: (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 4),
      questionsSource: "q.json",
      strategies: ["recursive", "fixed_size"],
      topK: 3,
    });
    const experiment = await ws.app.getExperiment(e.experimentId);
    const results = await ws.app.experimentResults(e.experimentId);
    // Every metric's change is missing but the composite's.
    const deltas = Object.fromEntries(
      experiment.strategiesUsed.map((s) => [s, { ...Object.fromEntries(BUILT_IN_METRICS.all.map((m) => [m.key, null])), composite_score: 0.25 }]),
    );
    for (const view of ["managerial", "technical"] as const) {
      const html = renderHtmlReport(
        { metrics: BUILT_IN_METRICS, experiment, results, baseline: { id: "earlier", deltas, notes: ["the embedder differs: use in the baseline, hash now"] } },
        view,
      );
      assert.doesNotMatch(html, /\(\s*\)/, `${view}: no empty brackets`);
      assert.match(html, /\(\+0\.25\)/, `${view}: the composite's change is shown`);
      assert.match(html, /Not like for like with the baseline: the embedder differs: use in the baseline, hash now\./, `${view}: what differs is said`);
    }
    // No strategy paired with the baseline: the report says no changes are shown, not that they are in brackets.
    const unpaired = renderMarkdownReport({ metrics: BUILT_IN_METRICS, experiment, results, baseline: { id: "earlier", deltas: {} } });
    assert.match(unpaired, /Baseline earlier: no changes are shown: no question of this run was asked in the baseline\./);
    assert.doesNotMatch(unpaired, /Changes in brackets/);
  } finally {
    await ws.cleanup();
  }
});

test("baseline changes under other weights: the composite's change is rescored from both runs' questions with this run's weights", async () => {
  const ws = await createWorkspace();
  try {
    const input = {
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions: (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 6),
      questionsSource: "q.json",
      strategies: ["recursive", "fixed_size"],
      topK: 3,
    };
    const before = await ws.app.bench(input);
    // The same chunks and questions, so the same per-question scores; only the weights change.
    const now = await ws.app.bench({
      ...input,
      weights: { recall: 1, mrr: 0, answer_similarity: 0, faithfulness: 0, context_relevance: 0, retrieval_efficiency: 1 },
    });
    const report = (await ws.app.renderReport(now.experimentId, { format: "json", baselineId: before.experimentId })).body as {
      baseline: { deltas: Record<string, Record<string, number | null>> };
    };
    for (const s of input.strategies) {
      const stored = now.aggregateMetrics[s]!.compositeScore! - before.aggregateMetrics[s]!.compositeScore!;
      assert.ok(Math.abs(stored) > 0.1, `${s}: the stored composites differ (${stored}), so the test can tell`);
      assert.ok(
        Math.abs(report.baseline.deltas[s]!.composite_score!) < 1e-9,
        `${s}: no change on the same questions (${report.baseline.deltas[s]!.composite_score})`,
      );
      assert.equal(report.baseline.deltas[s]!.avg_recall, 0);
    }
    // The Markdown report shows the same changes as the HTML one (it showed none).
    const markdown = (await ws.app.renderReport(now.experimentId, { format: "md", baselineId: before.experimentId })).body as string;
    assert.match(markdown, /Changes in brackets are against the baseline exp_\w+/);
    assert.match(markdown, /\| recursive[^\n]*\(\+0\.00\)/, "the composite's change beside it");
  } finally {
    await ws.cleanup();
  }
});
