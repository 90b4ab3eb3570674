import { gatesHeadline } from "../../src/domain/gate-outcome.js";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ExperimentRecord } from "../../src/domain/experiment.js";
import { renderCiSummary } from "../../src/reports/ci-summary.js";
import { renderJunit } from "../../src/reports/junit.js";
import { findAll, parseXml } from "../helpers/xml.js";

/** An experiment as the renderers read it: two strategies, one with a name full of XML and Markdown specials. */
function experiment(): ExperimentRecord {
  const metrics = (composite: number, failed: number) => ({
    compositeScore: composite,
    avgRecall: 0.5,
    totalQuestions: 3,
    failedQuestions: failed,
    missing: {},
  });
  return {
    experimentId: "exp_1",
    strategiesUsed: ["a<b&\"c'|d", "plain"],
    bestStrategy: "a<b&\"c'|d",
    aggregateMetrics: { "a<b&\"c'|d": metrics(6, 0), plain: metrics(5, 3) },
    questionsCount: 3,
    verdict: "a<b is best",
    tags: { "pr.number": "<&\u0001>" },
    createdAt: "2026-01-01T00:00:00.000",
    totalLatencySeconds: 1.5,
    details: { embedder: "hash" },
  } as unknown as ExperimentRecord;
}

test("JUnit XML is well-formed whatever the names hold, with a test case per strategy and per gate", () => {
  const xml = renderJunit({
    experiment: experiment(),
    outcomes: [{ gate: "--max-drop composite_score=0", strategy: "a<b&\"c'|d", passed: false, detail: "dropped <1> & more", notes: ['note "quoted"'] }],
  });
  const root = parseXml(xml);
  const cases = findAll(root, "testcase");
  assert.deepEqual(
    cases.map((c) => [c.attributes.classname, c.attributes.name, findAll(c, "failure").length]),
    [
      // The gate first: a gated run's result is its gates'.
      ["chunkeval.a<b&\"c'|d", "--max-drop composite_score=0", 1],
      ["chunkeval.a<b&\"c'|d", "benchmark", 0],
      ["chunkeval.plain", "benchmark", 1],
    ],
  );
  assert.equal(root.attributes.tests, "3");
  assert.equal(root.attributes.failures, "2");
  const failure = findAll(cases[0]!, "failure")[0]!;
  assert.equal(failure.attributes.message, "dropped <1> & more");
  assert.equal(failure.text, 'dropped <1> & more\nnote "quoted"');
  assert.equal(findAll(cases[2]!, "failure")[0]!.attributes.message, "plain: composite 5.00, 3 of 3 questions failed");
  const properties = Object.fromEntries(findAll(root, "property").map((p) => [p.attributes.name, p.attributes.value]));
  assert.equal(properties.gates, "the gate failed");
  assert.equal(properties.highest_composite, experiment().bestStrategy);
  assert.equal("best_strategy" in properties, experiment().verdictStatus === "recommendation", "best only where the headline recommends it");
  const tag = findAll(root, "property").find((p) => p.attributes.name === "tag.pr.number")!;
  assert.equal(tag.attributes.value, "<&>", "a control character XML cannot hold is dropped");
});

test("the Markdown summary keeps table rows whole and says which gates failed", () => {
  const md = renderCiSummary({
    metrics: BUILT_IN_METRICS,
    experiment: experiment(),
    outcomes: [
      { gate: "--fail-on-regression composite_score", strategy: "plain", passed: true, detail: "no | drop", notes: [] },
      { gate: "--max-drop composite_score=0", strategy: "plain", passed: false, detail: "dropped", notes: ["the embedder differs"] },
    ],
    baseline: { source: "ci/baseline.json", deltas: { plain: { composite_score: -0.5 } }, notes: ["the embedder differs"] },
    reports: [{ label: "report.html", href: "https://ci.example/run/1#artifacts" }],
  });
  assert.match(md, /^## ❌ chunkeval: 1 of 2 gates failed/);
  assert.match(md, /\| a&lt;b&"c'\\\|d ★ \| 6\.00 \| 0\.500 \| 0\/3 \|/, "a pipe in a name is escaped, not a new column");
  assert.match(md, /\| plain \| 5\.00 \(-0\.50\) \| 0\.500 \| 3\/3 \|/);
  assert.match(md, /\| ✅ passed \| `--fail-on-regression composite_score` \| plain \| no \\\| drop \|/);
  assert.equal(md.match(/- the embedder differs/g)!.length, 1, "a note shared by the run and a gate is listed once");
  assert.match(md, /- \[report\.html\]\(https:\/\/ci\.example\/run\/1#artifacts\)/);
});

test("the Markdown summary carries the verdict's headline and what it stands on: template questions read as a smoke test", () => {
  const smoke = {
    ...experiment(),
    verdictStatus: "smoke_test",
    headline: "Smoke test, not a recommendation: the questions are template questions. a<b scored highest.",
    verdictNotes: ["Questions: template (offline); they copy 100 % of their content words from their excerpts."],
  } as ExperimentRecord;
  const md = renderCiSummary({ metrics: BUILT_IN_METRICS, experiment: smoke, outcomes: [], reports: [] });
  assert.match(md, /\*\*Smoke test, not a recommendation: the questions are template questions\. a&lt;b scored highest\.\*\*/);
  assert.match(md, /^- Questions: template \(offline\)/m);
  assert.match(md, /★ highest composite \(the headline says whether that is a recommendation\)/);
  // An experiment from before the headline was recorded: no empty bold line.
  assert.doesNotMatch(renderCiSummary({ metrics: BUILT_IN_METRICS, experiment: experiment(), outcomes: [], reports: [] }), /\*\*\*\*/);
});

test("the gates' result in words agrees in number: the gate passed, 1 of 2 gates failed, all 3 gates passed", () => {
  const gate = (passed: boolean) => ({ gate: "--fail-under hit_rate=0.5", strategy: "recursive", passed, detail: "", notes: [] });
  assert.equal(gatesHeadline([]), null);
  assert.equal(gatesHeadline([gate(true)]), "the gate passed");
  assert.equal(gatesHeadline([gate(false)]), "the gate failed");
  assert.equal(gatesHeadline([gate(true), gate(false)]), "1 of 2 gates failed");
  assert.equal(gatesHeadline([gate(true), gate(true), gate(true)]), "all 3 gates passed");
});
