import { test } from "node:test";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { loadQuestionsOrigin } from "../../src/evaluators/question-set.js";
import { renderHtmlReport, renderMarkdownReport } from "../../src/reports/render.js";
import { experimentView } from "../../src/services/benchmarking/experiments.js";
import { toWire } from "../../src/transports/serialize.js";
import { handbookBytes } from "../helpers/documents.js";
import { createWorkspace } from "../helpers/workspace.js";
import { SPEECH } from "../helpers/speech.js";

test("template questions on a speech: keyword search scores full recall and the verdict, reports and JSON say smoke test, not a recommendation", async () => {
  // Dense by configuration, so that recursive and recursive@retrieval=keyword are two modes of one strategy.
  const ws = await createWorkspace({ retrieval: "dense" });
  try {
    const document = { filename: "speech.txt", bytes: Buffer.from(SPEECH) };
    const generated = await ws.app.generateQuestions({ document, count: 12, generator: "template" });
    const path = join(ws.dir, "speech.questions.json");
    writeFileSync(path, JSON.stringify(toWire(generated)));
    const e = await ws.app.bench({
      document,
      questions: await loadQuestionsFile(path),
      questionsSource: "speech.questions.json",
      questionsOrigin: await loadQuestionsOrigin(path),
      strategies: ["recursive", "recursive@retrieval=keyword", "fixed_size"],
      topK: 3,
    });
    const recall = (s: string) => e.aggregateMetrics[s]!.avgRecall!;
    console.log(`recall: ${e.strategiesUsed.map((s) => `${s} ${recall(s).toFixed(3)}`).join(", ")}; headline: ${e.headline}`);
    // The issue's case: template questions copy the answer's words, which keyword search finds every time.
    assert.equal(recall("recursive@retrieval=keyword"), 1);

    assert.deepEqual(e.questionSet && [e.questionSet.provenance, e.questionSet.provenanceFrom], ["template", "metadata"]);
    assert.equal(e.verdictStatus, "smoke_test");
    assert.match(e.headline, /^Smoke test, not a recommendation: the questions are template questions/);
    assert.deepEqual(e.retrievalModes, { recursive: "dense", "recursive@retrieval=keyword": "keyword", fixed_size: "dense" });
    assert.ok(e.verdictNotes.some((n) => /^Questions: template \(offline generator\); vocabulary leak: average \d+ %/.test(n)));
    assert.ok(e.verdictNotes.some((n) => /^Retrieval modes differ: dense \(recursive and fixed_size\); keyword \(recursive@retrieval=keyword\)/.test(n)));

    // The same fields after a round trip through the store, in every report and in the JSON.
    const stored = await ws.app.getExperiment(e.experimentId);
    for (const k of ["verdictStatus", "headline", "inseparableFromBest", "verdictNotes", "questionSet", "retrievalModes"] as const)
      assert.deepEqual(stored[k], e[k], k);
    const results = await ws.app.experimentResults(e.experimentId);
    const reports = {
      managerial: renderHtmlReport({ metrics: BUILT_IN_METRICS, experiment: stored, results }, "managerial"),
      technical: renderHtmlReport({ metrics: BUILT_IN_METRICS, experiment: stored, results }, "technical"),
      markdown: renderMarkdownReport({ metrics: BUILT_IN_METRICS, experiment: stored, results }),
    };
    for (const [name, text] of Object.entries(reports)) {
      assert.match(text, /Smoke test, not a recommendation/, name);
      assert.match(text, /template/, name);
      assert.doesNotMatch(text, /\bUse \S+: it scores higher/, name);
    }
    assert.match(reports.markdown, /\| recursive@retrieval=keyword (★ )?\| keyword \| \d/, "the Markdown scorecard shows each row's retrieval mode");
    assert.ok(stored.verdictNotes.some((n) => n.includes("'")) || stored.headline.includes("'"), "a note or the headline has an apostrophe");
    assert.doesNotMatch(reports.markdown, /&#\d+;|&(amp|quot|lt|gt);/, "Markdown prints text, not HTML entities");
    assert.match(reports.markdown, /'/);
    assert.match(reports.managerial, /<small class="muted retrieval">keyword<\/small>/, "the HTML scorecard shows each row's retrieval mode");
    const wire = toWire(experimentView(stored, BUILT_IN_METRICS)) as Record<string, unknown>;
    assert.equal(wire.verdict_status, "smoke_test");
    assert.equal((wire.question_set as { provenance: string }).provenance, "template");
  } finally {
    await ws.cleanup();
  }
});

test("hand-written questions: the headline recommends only when every lead is significant, else names who the best cannot be separated from", async () => {
  const ws = await createWorkspace();
  try {
    const e = await ws.app.bench({
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions: await loadQuestionsFile("questions/harbor-light-handbook.json"),
      questionsSource: "harbor-light-handbook.json",
      strategies: ["recursive", "recursive@chunk_size=128", "fixed_size"],
      topK: 3,
    });
    console.log(`headline: ${e.headline}\nverdict: ${e.verdict}`);
    assert.deepEqual(e.questionSet && [e.questionSet.provenance, e.questionSet.provenanceFrom], ["hand-written", "none"]);
    const noise = e.comparisons.filter((c) => !c.significant).map((c) => c.strategy);
    assert.deepEqual(e.inseparableFromBest, noise);
    if (noise.length > 0) {
      assert.equal(e.verdictStatus, "no_clear_winner");
      assert.match(e.headline, new RegExp(`^No clear winner among ${e.bestStrategy.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[ ,]`));
      for (const s of noise) assert.ok(e.headline.includes(s), s);
    } else {
      assert.equal(e.verdictStatus, "recommendation");
      assert.ok(e.headline.startsWith(`Use ${e.bestStrategy}: `));
    }
  } finally {
    await ws.cleanup();
  }
});
