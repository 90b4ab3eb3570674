import { test } from "node:test";
import assert from "node:assert/strict";
import type { QuestionResult } from "../../src/domain/experiment.js";
import { buildChunkMap, PAGE_CHARS, LONG_DOCUMENT_PAGES, type MapSegment } from "../../src/reports/chunk-map.js";
import { fitAxis } from "../../src/reports/charts.js";

/** Only the fields the chunk map reads. */
const result = (references: Array<[number, number]>, retrieved: Array<[number, number]>) =>
  ({
    references: references.map(([start, end]) => ({ text: "", start, end })),
    retrieved: retrieved.map(([start, end]) => ({ chunkId: "c", score: 1, start, end, text: "", parentId: null })),
  }) as unknown as QuestionResult;

const segmentsOf = (pieces: Array<{ gap: number } | { segments: MapSegment[] }>) => pieces.flatMap((p) => ("segments" in p ? p.segments : []));

test("chunk map: runs cover the text, chunks alternate, overlaps and parents are told apart, references and retrievals marked", () => {
  const text = "0123456789".repeat(10);
  const map = buildChunkMap(
    {
      note: null,
      documents: [
        {
          text,
          chunks: {
            fixed: [
              { start: 0, end: 40, role: "chunk" },
              { start: 30, end: 70, role: "chunk" },
              { start: 60, end: 100, role: "chunk" },
            ],
            parent_child: [
              { start: 0, end: 50, role: "parent" },
              { start: 50, end: 100, role: "parent" },
              { start: 0, end: 25, role: "chunk" },
              { start: 25, end: 50, role: "chunk" },
              { start: 50, end: 100, role: "chunk" },
            ],
          },
        },
      ],
    },
    ["fixed", "parent_child"],
    {
      fixed: [result([[35, 45]], [[30, 70]]), result([[80, 90]], [[60, 100]])],
      parent_child: [result([[35, 45]], [[0, 50]]), result([[80, 90]], [[50, 100]])],
    },
  );
  assert.equal(map.documents[0]!.windowNote, null);
  assert.equal(map.questionCount, 2);
  const [fixed, pc] = map.documents[0]!.strategies;
  const runs = segmentsOf(fixed!.pieces);
  assert.equal(runs.map((s) => s.text).join(""), text, "the runs spell the whole text");
  const at = (runs: MapSegment[], offset: number) => {
    let n = 0;
    for (const r of runs) {
      if (offset < n + r.text.length) return r;
      n += r.text.length;
    }
    throw new Error("offset outside the text");
  };
  assert.match(at(runs, 10).classes, /^c0\b/);
  assert.match(at(runs, 50).classes, /^c1\b/);
  assert.match(at(runs, 35).classes, /^ov\b/, "chunks 1 and 2 overlap at 30-40");
  assert.match(at(runs, 80).classes, /^c0\b/);
  assert.match(at(runs, 40).classes, /\bref\b/);
  assert.doesNotMatch(at(runs, 50).classes, /\bref\b/);
  assert.match(at(runs, 50).classes, /\bq1\b/);
  assert.doesNotMatch(at(runs, 10).classes, /\bq1\b/);
  assert.match(at(runs, 95).classes, /\bq2\b/);
  assert.deepEqual(
    runs.flatMap((r) => r.starts),
    [1, 2, 3],
  );
  const pcRuns = segmentsOf(pc!.pieces);
  assert.deepEqual([pc!.chunkCount, pc!.parentCount], [3, 2]);
  assert.match(at(pcRuns, 30).classes, /\bc1\b.*\bp0\b/);
  assert.match(at(pcRuns, 60).classes, /\bc0\b.*\bp1\b/);
  assert.deepEqual(
    pcRuns.flatMap((r) => r.parentStarts),
    [1, 2],
  );
});

test("chunk map: a document over the page limit shows windows around the references and says so", () => {
  const text = "word ".repeat(((LONG_DOCUMENT_PAGES + 20) * PAGE_CHARS) / 5);
  const map = buildChunkMap({ note: null, documents: [{ text, chunks: { fixed: [{ start: 0, end: text.length, role: "chunk" }] } }] }, ["fixed"], {
    fixed: [result([[300_000, 300_050]], [])],
  });
  assert.match(map.documents[0]!.windowNote!, /about 220 pages long .* only the text within 1500 characters of a reference excerpt/);
  const pieces = map.documents[0]!.strategies[0]!.pieces;
  assert.deepEqual(
    pieces.map((p) => ("gap" in p ? "gap" : "text")),
    ["gap", "text", "gap"],
  );
  assert.equal(
    segmentsOf(pieces)
      .map((s) => s.text)
      .join("").length,
    3050,
  );
});

test("scatter axes are fitted to the data with round ticks, inside their bounds", () => {
  const y = fitAxis([6.81, 6.9, 7.02], { min: 0, max: 10 });
  assert.ok(y.lo > 6 && y.lo <= 6.81 && y.hi >= 7.02 && y.hi < 8, JSON.stringify(y));
  assert.ok(y.ticks.length >= 3);
  const same = fitAxis([0.002, 0.002], { min: 0 });
  assert.ok(same.lo < 0.002 && same.hi > 0.002 && same.lo >= 0, JSON.stringify(same));
});
