import { test } from "node:test";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import { pageLabel, pageRange, pageSpans } from "../../src/domain/pages.js";
import { renderHtmlReport } from "../../src/reports/render.js";
import { chunkMapSource } from "../../src/services/benchmarking/chunk-map-source.js";
import { createWorkspace } from "../helpers/workspace.js";
import { buildPdf, layoutParagraphs } from "../helpers/pdf.js";

test("page range of a span: the pages of the blocks it overlaps", () => {
  // Three blocks on pages 1, 2, 2 and one on 4 (page 3 holds no text), as "aaaa\n\nbbbb..." offsets.
  const spans = pageSpans([
    { start: 0, end: 4, page: 1 },
    { start: 6, end: 10, page: 2 },
    { start: 12, end: 16, page: 2 },
    { start: 18, end: 22, page: 4 },
  ]);
  assert.deepEqual(pageRange(spans, 0, 4), { first: 1, last: 1 });
  assert.deepEqual(pageRange(spans, 2, 8), { first: 1, last: 2 });
  assert.deepEqual(pageRange(spans, 4, 6), null, "the blank line between blocks is on no page");
  assert.deepEqual(pageRange(spans, 7, 20), { first: 2, last: 4 });
  assert.equal(pageLabel(spans, 6, 16), "p. 2");
  assert.equal(pageLabel(spans, 0, 22), "pp. 1–4");
  assert.equal(pageLabel(spans, 3, 3), "p. 1", "an empty span inside a block");
  assert.equal(pageLabel([], 0, 10), "", "formats without pages say nothing");
  assert.deepEqual(pageSpans([{ start: 0, end: 4 }]), [], "blocks without a page give no spans");
});

test("the technical report of a PDF-based experiment shows pages in the chunk map and the drill-down", async () => {
  const ws = await createWorkspace();
  try {
    const page = (topic: string, n: number) =>
      layoutParagraphs([
        { lines: [`${topic} Rules`], size: 18 },
        ...Array.from({ length: 6 }, (_, i) => ({
          lines: [`The ${topic.toLowerCase()} rule number ${i + 1} of page ${n} says the lighthouse keeper`, "writes every visitor in the log book."],
        })),
      ]);
    const bytes = buildPdf([page("Harbor", 1), page("Beacon", 2), page("Ferry", 3)]);
    const experiment = await ws.app.bench({
      document: { filename: "rules.pdf", bytes },
      questions: [
        {
          question: "What does beacon rule number 3 say?",
          expectedAnswer: null,
          references: [{ text: "The beacon rule number 3 of page 2 says the lighthouse keeper writes every visitor in the log book." }],
        },
      ],
      questionsSource: "inline",
      strategies: ["fixed_size"],
      topK: 2,
    });
    const stored = await ws.app.getDocument(experiment.documentId);
    assert.ok(
      stored.blocks.every((b) => b.page !== undefined && b.page >= 1 && b.page <= 3),
      "pages survive storage",
    );
    const results = await ws.app.experimentResults(experiment.experimentId);
    const html = renderHtmlReport(
      { metrics: BUILT_IN_METRICS, experiment, results, chunkMap: await chunkMapSource(ws.internals.context, experiment.experimentId) },
      "technical",
    );
    // Chunk map: each chunk's start mark carries its pages.
    assert.match(html, /<sup>1 · p{1,2}\. 1(–\d)?<\/sup>/);
    // Drill-down: each retrieved chunk's offsets are followed by its pages.
    assert.match(html, /score [\d.]+ \[\d+-\d+\] pp?\. \d/);
    // The reference excerpt is on page 2.
    assert.match(html, /Reference \[\d+-\d+\] p\. 2:/);
    // A document without pages says nothing of pages.
    const plain = await ws.app.bench({
      document: { filename: "rules.txt", bytes: Buffer.from("The harbor rule says the keeper writes every visitor in the log book.\n\nAnother paragraph.") },
      questions: [{ question: "What does the harbor rule say?", expectedAnswer: null, references: [] }],
      questionsSource: "inline",
      strategies: ["fixed_size"],
      topK: 1,
    });
    const plainHtml = renderHtmlReport(
      {
        metrics: BUILT_IN_METRICS,
        experiment: plain,
        results: await ws.app.experimentResults(plain.experimentId),
        chunkMap: await chunkMapSource(ws.internals.context, plain.experimentId),
      },
      "technical",
    );
    assert.doesNotMatch(plainHtml, / · pp?\. \d|\] pp?\. \d/);
  } finally {
    await ws.cleanup();
  }
});
