import { test } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../src/parsers/parser.js";
import { createStrategyRegistry, STRATEGY_NAMES } from "../../src/strategies/registry.js";
import type { ChunkDraft } from "../../src/strategies/strategy.js";
import type { Block, StoredDocument } from "../../src/domain/types.js";
import { sectionsOf } from "../../src/domain/sections.js";
import { countTokens } from "../../src/text/tokens.js";
import { ValidationError } from "../../src/errors.js";
import { buildDocx, handbookBytes, type Element } from "../helpers/documents.js";
import { syntheticTexts } from "../helpers/synthetic-texts.js";

const registry = createStrategyRegistry();

function stored(parsed: { title: string; text: string; blocks: Block[]; format: string }): StoredDocument {
  return { id: "doc_structure", filename: "s.docx", paragraphCount: parsed.blocks.length, chunkCounts: {}, createdAt: "", ...parsed };
}

/** A document from blocks given as [kind, level, text], joined by blank lines as the parsers join them. */
function fromBlocks(parts: Array<[Block["kind"], number, string]>): StoredDocument {
  const blocks: Block[] = [];
  let text = "";
  for (const [kind, level, t] of parts) {
    if (text) text += "\n\n";
    blocks.push({ kind, level, text: t, start: text.length, end: text.length + t.length });
    text += t;
  }
  return stored({ title: "synthetic", text, blocks, format: "docx" });
}

async function fromDocx(elements: Element[]): Promise<StoredDocument> {
  return stored(await parseDocument(await buildDocx(elements), "s.docx"));
}

async function chunk(document: StoredDocument, options?: Record<string, unknown>): Promise<ChunkDraft[]> {
  return (await registry.get("structure").create(options)).chunk({ document, embed: async () => [] });
}

function checkInvariants(doc: StoredDocument, chunks: ChunkDraft[], max: number): void {
  assert.ok(chunks.length > 0);
  for (const [i, c] of chunks.entries()) {
    assert.equal(doc.text.slice(c.start, c.end), c.text);
    assert.equal(c.tokenCount, countTokens(c.text));
    assert.ok(c.tokenCount <= max, `chunk ${i}: ${c.tokenCount} tokens > ${max}`);
    assert.equal(c.text, c.text.trim());
    assert.equal(c.role, "chunk");
    if (i > 0) assert.match(doc.text.slice(chunks[i - 1]!.end, c.start), /^\s*$/, "chunks follow each other without gaps or overlap");
  }
}

const sentence = (n: number, topic: string) => `Sentence ${n} explains how the ${topic} works for every member of the cooperative.`;
const paragraph = (topic: string, sentences: number, from = 0) => Array.from({ length: sentences }, (_, i) => sentence(from + i, topic)).join(" ");

test("sectionsOf: a heading's section runs to the next heading of its level or higher, with its heading path", () => {
  const doc = fromBlocks([
    ["paragraph", 0, "Preface before any heading."],
    ["heading", 1, "Chapter A"],
    ["paragraph", 0, "A's own text."],
    ["heading", 2, "A.1"],
    ["paragraph", 0, "A.1 text."],
    ["heading", 3, "A.1.x"],
    ["list_item", 1, "an item"],
    ["heading", 2, "A.2"],
    ["heading", 1, "Chapter B"],
    ["heading", 3, "B deep (level skipped)"],
    ["table_row", 0, "a | b"],
  ]);
  const sections = sectionsOf(doc.blocks, doc.text.length);
  const at = (t: string) => doc.text.indexOf(t);
  const endOf = (t: string) => doc.text.indexOf(t) + t.length;
  assert.deepEqual(
    sections.map((s) => [s.headingPath.join(" > "), s.level, s.parent, doc.text.slice(s.start, s.end).split("\n\n").length]),
    [
      ["", 0, null, 1],
      ["Chapter A", 1, null, 7],
      ["Chapter A > A.1", 2, 1, 4],
      ["Chapter A > A.1 > A.1.x", 3, 2, 2],
      ["Chapter A > A.2", 2, 1, 1],
      ["Chapter B", 1, null, 3],
      ["Chapter B > B deep (level skipped)", 3, 5, 2],
    ],
  );
  assert.equal(sections[1]!.start, at("Chapter A"));
  assert.equal(sections[1]!.ownEnd, endOf("A's own text."), "a section's own text stops at its first subsection");
  assert.equal(sections[4]!.ownEnd, endOf("A.2"), "a heading without text of its own owns just its line");
  assert.equal(sections.at(-1)!.end, doc.text.length);
  assert.deepEqual(
    sectionsOf(
      fromBlocks([
        ["paragraph", 0, "only"],
        ["paragraph", 0, "text"],
      ]).blocks,
      10,
    ).map((s) => [s.start, s.end, s.level]),
    [[0, 10, 0]],
    "no headings: the whole document is one level-0 section",
  );
  assert.deepEqual(sectionsOf([], 5), [{ start: 0, end: 5, ownEnd: 5, level: 0, headingPath: [], parent: null }]);
});

test("structure: offsets slice back, sizes stay within max_tokens, output is deterministic (handbook and stress texts)", async () => {
  const handbook = stored(await parseDocument(handbookBytes(), "harbor-light-handbook.docx"));
  for (const options of [{}, { max_tokens: 120, min_tokens: 30 }, { max_tokens: 16, min_tokens: 4 }]) {
    const chunks = await chunk(handbook, options);
    checkInvariants(handbook, chunks, (options as { max_tokens?: number }).max_tokens ?? 512);
    assert.deepEqual(await chunk(handbook, options), chunks);
  }
  for (const [name, text] of Object.entries(syntheticTexts())) {
    const doc = stored({ title: name, text, blocks: [], format: "docx" });
    const chunks = await chunk(doc, { max_tokens: 64, min_tokens: 8 });
    if (text.trim() === "") continue;
    checkInvariants(doc, chunks, 64);
  }
});

test("structure: one chunk per section, heading included, on a real .docx", async () => {
  const doc = await fromDocx([
    { h: "Solar panels" },
    { p: paragraph("solar programme", 3) },
    { h: "Installation", level: 2 },
    { p: paragraph("installation", 2) },
    { h: "Wind turbines" },
    { p: paragraph("wind project", 4) },
    { h: "Billing" },
    { p: paragraph("billing", 3) },
  ]);
  const chunks = await chunk(doc, { max_tokens: 200, min_tokens: 1 });
  checkInvariants(doc, chunks, 200);
  assert.deepEqual(
    chunks.map((c) => c.text.split("\n\n")[0]),
    ["Solar panels", "Wind turbines", "Billing"],
    "each top-level section (its subsection included) is one chunk starting at its heading",
  );
  assert.match(chunks[0]!.text, /Installation[\s\S]*installation works/);
  // Too small for the whole first section: it falls apart along its subsections.
  const finer = await chunk(doc, { max_tokens: 60, min_tokens: 1 });
  checkInvariants(doc, finer, 60);
  const starts = finer.map((c) => c.start);
  for (const heading of doc.blocks.filter((b) => b.kind === "heading")) assert.ok(starts.includes(heading.start), `a chunk starts at "${heading.text}"`);
});

test("structure: a table is kept whole where it fits, and cut between rows where it does not", async () => {
  const rows = Array.from({ length: 8 }, (_, i) => [`Tariff ${i}`, `${20 + i}.5 cents per kWh`, `band ${i}`]);
  const doc = await fromDocx([{ h: "Tariffs" }, { p: paragraph("tariff", 6) }, { table: rows }, { p: paragraph("meter", 6) }]);
  const tableRows = doc.blocks.filter((b) => b.kind === "table_row");
  assert.equal(tableRows.length, 8);
  const table = { start: tableRows[0]!.start, end: tableRows.at(-1)!.end };
  const tableTokens = countTokens(doc.text.slice(table.start, table.end));
  const max = tableTokens + 10;
  assert.ok(countTokens(doc.text) > max, "the section does not fit, so it is split");
  const chunks = await chunk(doc, { max_tokens: max, min_tokens: 1 });
  checkInvariants(doc, chunks, max);
  assert.ok(
    chunks.some((c) => c.start <= table.start && c.end >= table.end),
    "one chunk holds the whole table",
  );
  // A table larger than max_tokens: every cut falls between two rows, never inside one.
  const small = Math.ceil(tableTokens / 3);
  const cut = await chunk(doc, { max_tokens: small, min_tokens: 1 });
  checkInvariants(doc, cut, small);
  const inTable = cut.filter((c) => c.start >= table.start && c.end <= table.end);
  assert.ok(inTable.length >= 3);
  for (const c of inTable) {
    assert.ok(
      tableRows.some((r) => r.start === c.start),
      "a table piece starts at a row",
    );
    assert.ok(
      tableRows.some((r) => r.end === c.end),
      "a table piece ends at a row",
    );
  }
});

test("structure: runs of small sections merge up to min_tokens, never past max_tokens", async () => {
  const parts: Array<[Block["kind"], number, string]> = [];
  for (let i = 0; i < 12; i++) parts.push(["heading", 2, `Question ${i}`], ["paragraph", 0, `Answer ${i}: yes.`]);
  const doc = fromBlocks(parts);
  const separate = await chunk(doc, { max_tokens: 100, min_tokens: 1 });
  assert.equal(separate.length, 12, "min_tokens 1: every section is its own chunk");
  const merged = await chunk(doc, { max_tokens: 100, min_tokens: 30 });
  checkInvariants(doc, merged, 100);
  assert.ok(merged.length < 12 && merged.length > 1, `${merged.length} chunks`);
  for (const c of merged.slice(0, -1)) assert.ok(c.tokenCount >= 30, `a merged chunk reaches min_tokens (${c.tokenCount})`);
  for (const c of merged) assert.ok(c.text.startsWith("Question "), "merges keep whole sections");
  const capped = await chunk(doc, { max_tokens: 20, min_tokens: 20 });
  checkInvariants(doc, capped, 20);
});

test("structure: an oversize section is split recursively, at paragraphs first", async () => {
  const parts: Array<[Block["kind"], number, string]> = [["heading", 1, "Long section"]];
  for (let i = 0; i < 10; i++) parts.push(["paragraph", 0, paragraph(`topic ${i}`, 3, i * 3)]);
  const doc = fromBlocks(parts);
  const chunks = await chunk(doc, { max_tokens: 120, min_tokens: 10 });
  checkInvariants(doc, chunks, 120);
  assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
  assert.ok(chunks[0]!.text.startsWith("Long section\n\n"), "the first piece carries the heading");
  const blockStarts = new Set(doc.blocks.map((b) => b.start));
  for (const c of chunks) assert.ok(blockStarts.has(c.start), "each piece starts at a paragraph");
  // A single paragraph over max_tokens goes down to sentences.
  const one = fromBlocks([
    ["heading", 1, "Dense"],
    ["paragraph", 0, paragraph("dense", 12)],
  ]);
  checkInvariants(one, await chunk(one, { max_tokens: 50, min_tokens: 5 }), 50);
});

test("structure: without headings it packs paragraphs", async () => {
  const doc = fromBlocks(Array.from({ length: 12 }, (_, i): [Block["kind"], number, string] => ["paragraph", 0, paragraph(`plain ${i}`, 2)]));
  const chunks = await chunk(doc, { max_tokens: 100, min_tokens: 10 });
  checkInvariants(doc, chunks, 100);
  assert.ok(chunks.length > 2);
  const blockStarts = new Set(doc.blocks.map((b) => b.start));
  for (const c of chunks) assert.ok(blockStarts.has(c.start));
});

test("structure: options are validated, and it is one of the strategies `all` runs", async () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ max_tokens: 0 }, /max_tokens must be a whole number > 0/],
    [{ max_tokens: 10.5 }, /max_tokens must be a whole number > 0/],
    [{ min_tokens: 0 }, /0 < min_tokens <= max_tokens/],
    [{ min_tokens: 600, max_tokens: 500 }, /0 < min_tokens <= max_tokens/],
    [{ chunk_size: 100 }, /unknown option "chunk_size"/],
  ];
  for (const [options, message] of cases) {
    await assert.rejects(registry.get("structure").create(options), (e: unknown) => e instanceof ValidationError && message.test(e.message));
  }
  assert.deepEqual((await registry.get("structure").create()).options, { max_tokens: 512, min_tokens: 64 });
  assert.ok((STRATEGY_NAMES as readonly string[]).includes("structure"));
  assert.deepEqual(registry.names(), [...STRATEGY_NAMES]);
});
