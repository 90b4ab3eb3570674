import { test } from "node:test";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { renderHtmlReport, renderMarkdownReport } from "../../src/reports/render.js";
import type { ExperimentRecord, QuestionResult } from "../../src/domain/experiment.js";
import { handbookBytes } from "../helpers/documents.js";
import { createWorkspace } from "../helpers/workspace.js";

/** Drops fields from every object of a JSON tree whose key is in `names`. */
function without<T>(value: T, names: string[]): T {
  return JSON.parse(JSON.stringify(value), (key, v) => (names.includes(key) ? undefined : v)) as T;
}

test("an experiment stored before some metrics existed still renders: their columns say n/a, the others show their values", async () => {
  const ws = await createWorkspace();
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 4);
    const e = await ws.app.bench({
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "h.json",
      strategies: ["recursive", "fixed_size"],
      topK: 3,
    });
    // As an experiment from before retrieval efficiency, Precision_Ω, rank metrics, retrieved tokens and the latency interval were recorded.
    const absent = ["avgRetrievalEfficiency", "avgPrecisionOmega", "retrievalEfficiency", "precisionOmega", "rankMetrics", "rankCuts"];
    const older = without<ExperimentRecord>(await ws.app.getExperiment(e.experimentId), [...absent, "latencyInterval", "avgRetrievedTokens", "sharedSeconds"]);
    const results = without<Record<string, QuestionResult[]>>(await ws.app.experimentResults(e.experimentId), [...absent, "retrievedTokens"]);
    const best = older.aggregateMetrics[older.bestStrategy]!;
    const md = renderMarkdownReport({ metrics: BUILT_IN_METRICS, experiment: older, results });
    const header = md
      .split("\n")
      .find((line) => line.startsWith("| strategy |"))!
      .split("|");
    const row = md
      .split("\n")
      .find((line) => line.startsWith(`| ${older.bestStrategy} ★`))!
      .split("|");
    const cell = (heading: string) => row[header.findIndex((h) => h.trim().startsWith(heading))]!.trim();
    assert.equal(cell("efficiency"), "n/a");
    assert.equal(cell("recall"), `${(100 * best.avgRecall!).toFixed(1)}%`);
    assert.equal(cell("MRR"), best.mrr!.toFixed(3));
    for (const view of ["managerial", "technical"] as const) {
      const html = renderHtmlReport({ metrics: BUILT_IN_METRICS, experiment: older, results }, view);
      assert.match(html, new RegExp(`<td>${(100 * best.avgRecall!).toFixed(1)}%`), view);
    }
    const technical = renderHtmlReport({ metrics: BUILT_IN_METRICS, experiment: older, results }, "technical");
    assert.match(technical, /efficiency n\/a · precision Ω n\/a · /, "each question's line says n/a for what was not recorded");
  } finally {
    await ws.cleanup();
  }
});
