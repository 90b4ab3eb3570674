// Issue 37 item 4: report sections are declared once (src/reports/sections.ts) and every renderer
// shows those declared for it, in the declared order. The console and CI summary are held to the
// list by the type checker (their maps are keyed by SectionOf<…>); the templates by the first test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { REPORT_SECTIONS, RENDERERS, sectionsOf, type Renderer } from "../../src/reports/sections.js";
import { consoleScorecard } from "../../src/reports/console-scorecard.js";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { createWorkspace } from "../helpers/workspace.js";

const TEMPLATES = "src/reports/templates/sections";

/** What is wrong between the sections declared for the HTML and Markdown reports and the section templates there are. */
function templateGaps(declared: { html: string[]; markdown: string[] }, files: string[]): string[] {
  const wanted = new Set([...declared.html.map((id) => `${id}.njk`), ...declared.markdown.map((id) => `${id}.md.njk`)]);
  return [
    ...[...wanted].filter((f) => !files.includes(f)).map((f) => `${f}: declared, but no template renders it`),
    ...files.filter((f) => !wanted.has(f)).map((f) => `${f}: a template of no section declared for its renderer`),
  ];
}

const declared = () => ({ html: [...new Set([...sectionsOf("managerial"), ...sectionsOf("technical")])], markdown: sectionsOf("markdown") });

test("each section declared for the HTML or Markdown report has its template there, and no template is of an undeclared section", () => {
  assert.deepEqual(templateGaps(declared(), readdirSync(TEMPLATES)), []);
  // The check fails on a section declared without its template, and on a template whose section is not declared.
  assert.deepEqual(templateGaps({ html: ["verdict", "glossary"], markdown: [] }, ["verdict.njk", "sweep.md.njk"]), [
    "glossary.njk: declared, but no template renders it",
    "sweep.md.njk: a template of no section declared for its renderer",
  ]);
  // The layouts render the declared list, not a list of their own.
  assert.match(readFileSync("src/reports/templates/report.njk", "utf8"), /{% for section in sections %}{% include "sections\/" \+ section \+ "\.njk" %}/);
  assert.match(
    readFileSync("src/reports/templates/report.md.njk", "utf8"),
    /{% for section in sections %}{% include "sections\/" \+ section \+ "\.md\.njk" %}/,
  );
  assert.equal(new Set(REPORT_SECTIONS.map((s) => s.id)).size, REPORT_SECTIONS.length, "ids are unique");
  for (const renderer of RENDERERS) assert.ok(sectionsOf(renderer).includes("verdict"), `${renderer} shows the verdict`);
});

/**
 * What marks each section in each renderer's output of the experiment below: the sections must be
 * exactly those declared for the renderer, and their marks must come in the declared order.
 */
const marks = (headline: string): Record<Renderer, Record<string, string>> => ({
  managerial: {
    gates: "<h2>Gates:",
    verdict: '<section class="callout">',
    scorecard: "<h2>Scorecard</h2>",
    axes: "<h2>Strategy × retriever</h2>",
    "per-document": "<h2>Per document</h2>",
    sweep: "<h2>Sweep</h2>",
    "trade-offs": "<h2>Trade-offs</h2>",
    cost: "<h2>Cost</h2>",
    run: "<h2>Run configuration</h2>",
  },
  technical: {
    gates: "<h2>Gates:",
    verdict: "<h2>Verdict and confidence</h2>",
    scorecard: "<h2>Metrics per strategy</h2>",
    axes: "<h2>Strategy × retriever</h2>",
    "per-document": "<h2>Per document</h2>",
    sweep: "<h2>Sweep</h2>",
    "every-metric": "<h2>Every metric with its 95 % confidence interval</h2>",
    ranking: "<h2>Ranking at k =",
    "negative-controls": "<h2>Negative controls</h2>",
    contributions: "<h2>What each metric contributed to the composite</h2>",
    definitions: "<h2>Metric definitions</h2>",
    latency: "<h2>Latency</h2>",
    cost: "<h2>Tokens and cost</h2>",
    chunks: "<h2>Chunks and indexing</h2>",
    questions: "<h2>Questions</h2>",
    "chunk-map": '<h2 id="chunk-map">Chunk map</h2>',
  },
  markdown: {
    gates: "**Gates:",
    verdict: `**${headline}**`,
    scorecard: "| strategy | retrieval |",
    axes: "### Strategy × retriever",
    "per-document": "### Per document",
    sweep: "### Sweep of",
    ranking: "### Ranking at k",
    "negative-controls": "### Negative controls",
  },
  console: {
    verdict: "verdict: ",
    scorecard: "↑ higher is better",
    axes: "strategy × retriever",
    "per-document": "documents searched together",
    "negative-controls": "negative controls: ",
    cost: "total latency",
    run: "experiment: ",
  },
  "ci-summary": {
    gates: "| result | gate |",
    verdict: "**Verdict:**",
    scorecard: "| strategy | composite",
    run: "Experiment `",
    reports: "### Reports",
  },
});

/** What is wrong with one rendering: a declared section not shown, a section shown that is not declared for it, or the declared order not kept. */
function sectionProblems(output: string, marks: Record<string, string>, declared: readonly string[]): string[] {
  const at = (id: string) => output.indexOf(marks[id]!);
  const shown = declared.filter((id) => at(id) >= 0);
  const order = [...shown].sort((x, y) => at(x) - at(y));
  return [
    ...declared.filter((id) => at(id) < 0).map((id) => `${id}: declared, not shown`),
    ...Object.keys(marks)
      .filter((id) => !declared.includes(id) && at(id) >= 0)
      .map((id) => `${id}: shown, not declared for it`),
    ...(order.join() === shown.join() ? [] : [`order: ${order.join(", ")}`]),
  ];
}

test("the check of a rendering fails on a section missing, a section not declared for it, and another order", () => {
  const marks = { verdict: "## Verdict", scorecard: "## Scorecard", latency: "## Latency" };
  assert.deepEqual(sectionProblems("## Verdict\n## Scorecard", marks, ["verdict", "scorecard"]), []);
  assert.deepEqual(sectionProblems("## Scorecard\n## Verdict", marks, ["verdict", "scorecard"]), ["order: scorecard, verdict"]);
  assert.deepEqual(sectionProblems("## Verdict", marks, ["verdict", "scorecard"]), ["scorecard: declared, not shown"]);
  assert.deepEqual(sectionProblems("## Verdict\n## Scorecard\n## Latency", marks, ["verdict", "scorecard"]), ["latency: shown, not declared for it"]);
});

test("every renderer shows the sections declared for it, in the declared order, and no other", async () => {
  const ws = await createWorkspace();
  try {
    const dir = "examples/corpus";
    const e = await ws.app.bench({
      collection: { name: "sections", add: readdirSync(dir).map((f) => ({ filename: f, bytes: readFileSync(`${dir}/${f}`) })) },
      questions: [
        ...(await loadQuestionsFile("questions/corpus.json")).slice(0, 12),
        { question: "What colour is the night sky over Mars in winter?", answerable: false, references: [], expectedAnswer: null },
      ],
      questionsSource: "corpus.json",
      strategies: ["recursive", "fixed_size"],
      sweep: ["fixed_size:chunk_size=128,256"],
      retrievers: ["dense", "keyword"],
      topK: 3,
      gates: { failUnder: ["composite_score=0"] },
    });
    const ci = await ws.app.ciOutputs({ experimentId: e.experimentId });
    const consoleText = consoleScorecard(e, ws.app.metrics)
      .map((b) => ("line" in b ? b.line : b.head.join(" ")))
      .join("\n");
    const outputs: Record<Renderer, string> = {
      managerial: (await ws.app.renderReport(e.experimentId, { format: "html", view: "managerial" })).body as string,
      technical: (await ws.app.renderReport(e.experimentId, { format: "html", view: "technical" })).body as string,
      markdown: (await ws.app.renderReport(e.experimentId, { format: "md" })).body as string,
      console: consoleText,
      "ci-summary": ci.summary([{ label: "report.html", href: null }]),
    };
    const MARKS = marks(e.headline);
    // The two HTML views share a page: each is also checked for the other view's own sections.
    const otherView = (mine: Renderer, other: Renderer) =>
      Object.fromEntries(Object.entries(MARKS[other]).filter(([id]) => !(sectionsOf(mine) as string[]).includes(id)));
    const alsoAbsent: Partial<Record<Renderer, Record<string, string>>> = {
      managerial: otherView("managerial", "technical"),
      technical: otherView("technical", "managerial"),
    };
    for (const renderer of RENDERERS) {
      assert.deepEqual(Object.keys(MARKS[renderer]), sectionsOf(renderer), `${renderer}: a mark for each section declared for it`);
      assert.deepEqual(sectionProblems(outputs[renderer], { ...alsoAbsent[renderer], ...MARKS[renderer] }, sectionsOf(renderer)), [], renderer);
    }
    assert.ok(Object.keys(alsoAbsent.managerial!).includes("every-metric") && Object.keys(alsoAbsent.technical!).includes("trade-offs"));
    // Every heading of the HTML and Markdown reports opens a declared section (or is one of a section's own, listed):
    // a template that adds a section of its own is caught. The console and CI summary are their maps, by construction.
    for (const [renderer, heading, own] of [
      ["managerial", /<h2[^>]*>/g, ["<h2>Why</h2>"]],
      ["technical", /<h2[^>]*>/g, []],
      ["markdown", /^### /gm, []],
    ] as const) {
      const output = outputs[renderer];
      const opened = [...output.matchAll(heading)].map((m) => output.slice(m.index, m.index + 60));
      const stray = opened.filter((h) => !own.some((o) => h.startsWith(o)) && !Object.values(MARKS[renderer]).some((mark) => h.startsWith(mark)));
      assert.deepEqual(stray, [], `${renderer}: a heading of no declared section`);
    }
  } finally {
    await ws.cleanup();
  }
});
