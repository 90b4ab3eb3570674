import { test } from "node:test";
import assert from "node:assert/strict";
import { chunkHealth, degenerateChunkingWarnings, endsMidSentence, tableSpans, topKCoversEveryChunkWarnings } from "../../src/domain/chunk-health.js";

// A heading line, a paragraph of two sentences, and a two-row table.
const text = "Opening hours\nThe library opens at nine. It closes at six.\n| day | hours |\n| Mon | 9-6 |\nEnd.";
const at = (s: string) => text.indexOf(s);
const blocks = [
  { kind: "heading" as const, start: 0, end: at("\nThe") },
  { kind: "paragraph" as const, start: at("The library"), end: at("six.") + 4 },
  { kind: "table_row" as const, start: at("| day"), end: at("| day") + "| day | hours |".length },
  { kind: "table_row" as const, start: at("| Mon"), end: at("| Mon") + "| Mon | 9-6 |".length },
  { kind: "paragraph" as const, start: at("End."), end: text.length },
];

test("a chunk ends mid-sentence when it stops inside a sentence, not at a sentence end or a line end", () => {
  assert.equal(endsMidSentence(text, at("nine.") + 5), false, "after a full stop");
  assert.equal(endsMidSentence(text, at("nine")), true, "inside 'The library opens at nine.'");
  assert.equal(endsMidSentence(text, at("\nThe")), false, "a heading ends its line without a full stop");
  assert.equal(endsMidSentence(text, text.length), false, "the end of the document");
});

test("tables are runs of table rows; a table no chunk holds whole is split", () => {
  assert.deepEqual(tableSpans(blocks), [{ start: at("| day"), end: at("| Mon") + "| Mon | 9-6 |".length }]);
  const table = tableSpans(blocks)[0]!;
  const whole = chunkHealth([{ text, blocks, chunks: [{ start: 0, end: table.end, tokenCount: 40 }] }], 40);
  assert.deepEqual([whole.tables, whole.tablesSplit, whole.tablesSplitShare], [1, 0, 0]);
  const cut = chunkHealth(
    [
      {
        text,
        blocks,
        chunks: [
          { start: 0, end: at("| Mon"), tokenCount: 30 },
          { start: at("| Mon"), end: text.length, tokenCount: 10 },
        ],
      },
    ],
    40,
  );
  assert.deepEqual([cut.tables, cut.tablesSplit, cut.tablesSplitShare], [1, 1, 1]);
});

test("chunk health by hand: tiny chunks, mid-sentence ends, median and middle half of the sizes", () => {
  const chunks = [
    { start: 0, end: at("nine"), tokenCount: 8 }, // ends inside a sentence; 8 < 40 / 4: tiny
    { start: at("nine"), end: at("six.") + 4, tokenCount: 20 }, // ends a sentence
    { start: at("| day"), end: text.length, tokenCount: 30 }, // ends the document
    { start: at("End."), end: at("End.") + 2, tokenCount: 40 }, // "En|d.": mid-sentence
  ];
  const health = chunkHealth([{ text, blocks, chunks }], 40);
  assert.equal(health.chunks, 4);
  assert.equal(health.tinyShare, 0.25, "one chunk of four under 10 tokens");
  assert.equal(health.midSentenceShare, 0.5, "two of four stop inside a sentence");
  assert.equal(health.medianTokens, 25, "median of 8, 20, 30, 40");
  assert.deepEqual(health.tokensInterquartile, [17, 32.5], "linear-interpolated 25th and 75th percentiles");
  // Imported chunks have no target: no tiny share, the rest still measured.
  const noTarget = chunkHealth([{ text, blocks, chunks }], null);
  assert.deepEqual([noTarget.tinyShare, noTarget.midSentenceShare], [null, 0.5]);
  const empty = chunkHealth([], 40);
  assert.deepEqual([empty.tinyShare, empty.midSentenceShare, empty.medianTokens, empty.tablesSplitShare], [null, null, null, null]);
});

test("degenerate chunkings are warned about: identical chunks across strategies, a document shorter than one chunk", () => {
  const warnings = degenerateChunkingWarnings([
    { strategy: "recursive", document: "a.md", chunks: 3, signature: "x" },
    { strategy: "fixed_size", document: "a.md", chunks: 3, signature: "x" },
    { strategy: "semantic", document: "a.md", chunks: 4, signature: "y" },
    { strategy: "recursive", document: "short.md", chunks: 1, signature: "s" },
    { strategy: "fixed_size", document: "short.md", chunks: 1, signature: "s" },
    { strategy: "semantic", document: "short.md", chunks: 2, signature: "t" },
  ]);
  assert.deepEqual(
    warnings.map((w) => w.message),
    [
      "recursive and fixed_size made identical chunks (same spans and embedded text in every document): the comparison cannot tell their chunking apart.",
      "short.md is shorter than one chunk of recursive and fixed_size: each makes a single chunk of it, " +
        "so every search returns the whole document and the comparison cannot tell strategies apart on it.",
    ],
  );
  assert.deepEqual(
    warnings.map((w) => w.strategies),
    [
      ["recursive", "fixed_size"],
      ["recursive", "fixed_size"],
    ],
    "each warning names the strategies it concerns",
  );
  // Same chunks of one document but not of another: not identical.
  assert.deepEqual(
    degenerateChunkingWarnings([
      { strategy: "a", document: "one.md", chunks: 2, signature: "x" },
      { strategy: "b", document: "one.md", chunks: 2, signature: "x" },
      { strategy: "a", document: "two.md", chunks: 2, signature: "p" },
      { strategy: "b", document: "two.md", chunks: 3, signature: "q" },
    ]),
    [],
  );
});

test("a top_k that reaches every chunk a strategy made is warned about: every search returns everything", () => {
  const outlines = [
    { strategy: "recursive", document: "a.md", chunks: 3, signature: "x" },
    { strategy: "recursive", document: "b.md", chunks: 2, signature: "y" },
    { strategy: "semantic", document: "a.md", chunks: 9, signature: "z" },
    { strategy: "semantic", document: "b.md", chunks: 4, signature: "w" },
    { strategy: "structure", document: "a.md", chunks: 1, signature: "s" },
    { strategy: "structure", document: "b.md", chunks: 1, signature: "t" },
  ];
  const warnings = topKCoversEveryChunkWarnings(outlines, [
    { key: "recursive", indexKey: "recursive", topK: 5, retrieval: "dense" },
    { key: "recursive@top_k=4", indexKey: "recursive", topK: 4, retrieval: "dense" },
    { key: "semantic", indexKey: "semantic", topK: 5, retrieval: "dense" },
    { key: "structure", indexKey: "structure", topK: 5, retrieval: "dense" },
  ]);
  assert.deepEqual(warnings, [
    {
      message:
        "top_k 5 is at least the 5 chunks recursive makes of the documents searched: every dense or hybrid search returns all of them, " +
        "so recall is trivially 1 and the comparison cannot tell strategies apart.",
      strategies: ["recursive"],
    },
  ]);
  // top_k 4 of 5 chunks still chooses; 5 of 13 does; one chunk per document is the shorter-than-one-chunk warning's to say.
  assert.deepEqual(topKCoversEveryChunkWarnings(outlines, [{ key: "recursive", indexKey: "recursive", topK: 4, retrieval: "dense" }]), []);
  // A keyword search returns only the chunks sharing a term with the question: it still chooses.
  assert.deepEqual(topKCoversEveryChunkWarnings(outlines, [{ key: "recursive@retrieval=keyword", indexKey: "recursive", topK: 5, retrieval: "keyword" }]), []);
  assert.equal(topKCoversEveryChunkWarnings(outlines, [{ key: "recursive", indexKey: "recursive", topK: 5, retrieval: "hybrid" }]).length, 1);
});
