import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_WIDTH, displayWidth, outputWidth, renderTable, wrapProse } from "../../src/transports/cli/layout.js";

const lines = (text: string) => text.split("\n");
const widest = (text: string) => Math.max(...lines(text).map(displayWidth));

/** A scorecard as bench prints it: 13 columns, two-line headers, scores with intervals and changes. */
const SCORE_HEAD = [
  "strategy",
  "composite\n0-10 ↑",
  ...["ctx relevance", "answer sim", "faithful", "halluc", "recall", "IoU", "efficiency", "hit rate", "MRR"].map((h) => `${h}\n0-1 ↑`),
  "s/question\nseconds ↓",
  "failed",
];
const SCORE_ROWS = ["recursive *", "semantic_parent_child", "contextual_retrieval", "fixed_size"].map((s, i) => [
  s,
  `4.6${i} [3.99, 5.38] (+0.0${i})`,
  ...Array.from({ length: 9 }, (_, k) => `0.${k}${i}4 (-0.00${k})`),
  "0.006",
  `${i}/38`,
]);

test("a table wider than the width is wrapped or split into column groups, never past the width, numbers whole", () => {
  const natural = renderTable(SCORE_HEAD, SCORE_ROWS, 1000);
  assert.ok(widest(natural) > 200, `the scorecard is wide at its natural width (${widest(natural)})`);
  assert.equal(lines(natural).filter((l) => l.startsWith("┌")).length, 1, "one table when it fits");
  for (const width of [60, 80, 100, 120]) {
    const text = renderTable(SCORE_HEAD, SCORE_ROWS, width);
    assert.ok(widest(text) <= width, `width ${width}: a line of ${widest(text)}`);
    const tables = lines(text).filter((l) => l.startsWith("┌")).length;
    assert.ok(tables > 1, `width ${width}: shown as several tables`);
    // Every cell of a number column is on one line of one table; every row keeps its name in each table.
    for (const row of SCORE_ROWS) {
      for (const cell of row.slice(1)) assert.ok(text.includes(` ${cell} `), `width ${width}: "${cell}" whole`);
      assert.equal(text.split(row[0]!.split(" ")[0]!).length - 1, tables, `width ${width}: ${row[0]} leads each table`);
    }
    for (const h of SCORE_HEAD) assert.ok(text.includes(h.split("\n")[0]!.split(" ")[0]!), `width ${width}: header ${h}`);
  }
});

test("text columns wrap first, at dashes, slashes and commas; ids and dates stay whole", () => {
  const head = ["id", "filename", "paragraphs", "chunk counts", "created_at"];
  const rows = [
    [
      "doc_dced1abc00fcfceb",
      "tidewater-quay-lease-renewal-2027.pdf",
      "53",
      '{"fixed_size":9,"recursive":10,"semantic_parent_child":12}',
      "2026-11-25T09:35:02.909",
    ],
    ["doc_1a206f814eab7622", "notes/brisa kettle recall.txt", "35", '{"fixed_size":6}', "2026-11-25T09:35:02.754"],
  ];
  const text = renderTable(head, rows, 120);
  assert.ok(widest(text) <= 120, `a line of ${widest(text)}`);
  assert.equal(lines(text).filter((l) => l.startsWith("┌")).length, 1, "wrapping the text columns is enough at 120");
  for (const whole of ["doc_dced1abc00fcfceb", "2026-11-25T09:35:02.909", '"semantic_parent_child":12}']) assert.ok(text.includes(whole), whole);
  const narrow = renderTable(["name", "n"], [["tidewater-quay-lease-renewal-2027.pdf", "5"]], 30);
  assert.match(narrow, /│ tidewater-quay-lease- +│ 5 │\n│ renewal-2027\.pdf +│   │/, "a file name wraps after a dash, not before a number");
  assert.ok(!text.includes('"fixed_size":9,"recursive"'), "the chunk counts wrap at their commas");
});

test("a table that fits is left as it is", () => {
  const text = renderTable(["strategy", "chunks"], [["recursive", "20"]], 80);
  assert.equal(
    text,
    ["┌───────────┬────────┐", "│ strategy  │ chunks │", "├───────────┼────────┤", "│ recursive │ 20     │", "└───────────┴────────┘"].join("\n"),
  );
});

test("prose wraps at spaces with a hanging indent; a word longer than the line stays whole", () => {
  const text = "best strategy: contextual_retrieval (*); total latency 0.863 s; estimated cost $0.0000 ($0.0362 on gpt-4o-mini)";
  const wrapped = wrapProse(text, 40);
  assert.ok(widest(wrapped) <= 40);
  assert.equal(wrapped.replace(/\n +/g, " "), text, "only line breaks and indents added");
  assert.ok(
    lines(wrapped)
      .slice(1)
      .every((l) => l.startsWith("  ")),
  );
  assert.equal(wrapProse("short line", 40), "short line");
  const path = "/a/very/long/path/that/cannot/be/broken/anywhere/report.html";
  assert.equal(wrapProse(`report: ${path}`, 30), `report:\n  ${path}`);
});

test("the width: the terminal's, else COLUMNS, else the default", () => {
  const pipe = { isTTY: false, columns: 0 } as unknown as NodeJS.WriteStream;
  const saved = process.env.COLUMNS;
  try {
    delete process.env.COLUMNS;
    assert.equal(outputWidth(pipe), DEFAULT_WIDTH);
    process.env.COLUMNS = "72";
    assert.equal(outputWidth(pipe), 72);
    assert.equal(outputWidth({ isTTY: true, columns: 132 } as unknown as NodeJS.WriteStream), 132);
  } finally {
    if (saved === undefined) delete process.env.COLUMNS;
    else process.env.COLUMNS = saved;
  }
});
