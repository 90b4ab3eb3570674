import { test } from "node:test";
import assert from "node:assert/strict";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { handbookBytes } from "../helpers/documents.js";
import { createWorkspace } from "../helpers/workspace.js";
import { compositeBasis } from "../../src/reports/composite-basis.js";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";

test("context relevance measured for some strategies only leaves every composite; the verdict says why; it is still reported where measured", async () => {
  // `use` is a semantic embedder: the judge measures context relevance of dense search (configured
  // here for every strategy) but not of a hybrid search variant.
  const ws = await createWorkspace({ embedder: "use", retrieval: "dense" });
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 8);
    const e = await ws.app.bench({
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "handbook",
      strategies: ["recursive", "contextual_retrieval@retrieval=hybrid"],
      topK: 3,
    });
    const recursive = e.aggregateMetrics.recursive!;
    const contextual = e.aggregateMetrics["contextual_retrieval@retrieval=hybrid"]!;
    assert.equal(typeof recursive.avgContextRelevance, "number", "measured for dense search");
    assert.equal(contextual.avgContextRelevance, null, "not measured for hybrid search");
    for (const [name, m] of Object.entries(e.aggregateMetrics)) {
      assert.ok(m.compositeContributions !== null, name);
      assert.ok(!("avg_context_relevance" in m.compositeContributions), `${name}: context relevance is not in its composite`);
    }
    assert.ok(
      e.verdictNotes.some((n) => /^Context relevance is left out of every strategy's composite.*contextual_retrieval/.test(n)),
      e.verdictNotes.join("\n"),
    );
    assert.equal((await ws.app.getExperiment(e.experimentId)).details.weights.context_relevance, 0, "the weights the composite used are recorded");

    // All strategies dense: context relevance stays in the composite.
    const dense = await ws.app.bench({
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "handbook",
      strategies: ["recursive", "fixed_size"],
      topK: 3,
    });
    for (const [name, m] of Object.entries(dense.aggregateMetrics)) assert.ok("avg_context_relevance" in m.compositeContributions!, name);
    assert.ok(!dense.verdictNotes.some((n) => /Context relevance is left out/.test(n)));

    // Each composite says which metrics it holds, with their shares (reports, terminal and summary print it).
    const relevance = BUILT_IN_METRICS.definition("avg_context_relevance")!.label;
    const recall = BUILT_IN_METRICS.definition("avg_recall")!.label;
    const shares = (line: string) => [...line.matchAll(/ (\d+) %/g)].reduce((n, m) => n + Number(m[1]), 0);
    const denseBasis = compositeBasis(dense, ws.app.metrics)!;
    assert.match(denseBasis, new RegExp(`^Composite of: .*${relevance} \\d+ %.*${recall} \\d+ %`));
    assert.ok(Math.abs(shares(denseBasis) - 100) <= 3, denseBasis);
    const mixedBasis = compositeBasis(await ws.app.getExperiment(e.experimentId), ws.app.metrics)!;
    assert.match(mixedBasis, /^Composite of: /);
    assert.ok(!mixedBasis.includes(relevance), `context relevance dropped out of every composite: ${mixedBasis}`);
    // Composites that hold different metrics say so, strategy by strategy.
    const { avg_context_relevance: _dropped, ...rest } = dense.aggregateMetrics.fixed_size!.compositeContributions!;
    const differing = {
      ...dense,
      aggregateMetrics: { ...dense.aggregateMetrics, fixed_size: { ...dense.aggregateMetrics.fixed_size!, compositeContributions: rest } },
    };
    assert.match(
      compositeBasis(differing, ws.app.metrics)!,
      new RegExp(`^Composites hold different metrics: recursive of .*${relevance}.*; fixed_size of (?!.*${relevance})`),
    );
  } finally {
    await ws.cleanup();
  }
});
