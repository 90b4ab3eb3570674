import { test } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../src/parsers/parser.js";
import { createStrategyRegistry } from "../../src/strategies/registry.js";
import type { ChunkDraft, ChunkingContext } from "../../src/strategies/strategy.js";
import type { StoredDocument } from "../../src/domain/types.js";
import { hashEmbed } from "../../src/embedders/hash.js";
import { countTokens } from "../../src/text/tokens.js";
import { ValidationError } from "../../src/errors.js";
import { handbookBytes } from "../helpers/documents.js";
import { longWord } from "../helpers/synthetic-texts.js";

const registry = createStrategyRegistry();

async function handbook(): Promise<StoredDocument> {
  const parsed = await parseDocument(handbookBytes(), "harbor-light-handbook.docx");
  return { id: "doc_test", filename: "h.docx", paragraphCount: parsed.blocks.length, chunkCounts: {}, createdAt: "", ...parsed };
}

function context(document: StoredDocument): ChunkingContext {
  return { document, embed: async (texts) => texts.map(hashEmbed) };
}

async function chunk(name: string, document: StoredDocument, options?: Record<string, unknown>): Promise<ChunkDraft[]> {
  return (await registry.get(name).create(options)).chunk(context(document));
}

for (const name of registry.names()) {
  test(`${name}: offsets slice back to the text, token counts are exact, output is deterministic`, async () => {
    const doc = await handbook();
    const first = await chunk(name, doc);
    assert.ok(first.length > 1);
    for (const c of first) {
      assert.equal(doc.text.slice(c.start, c.end), c.text);
      assert.equal(c.tokenCount, countTokens(c.text));
      assert.equal(c.text, c.text.trim());
    }
    assert.deepEqual(await chunk(name, doc), first);
  });
}

for (const name of ["recursive", "fixed_size", "contextual_retrieval"]) {
  test(`${name}: chunks stay within chunk_size, overlap their neighbours, and cover the document`, async () => {
    const doc = await handbook();
    const chunks = await chunk(name, doc, { chunk_size: 120, chunk_overlap: 20 });
    for (const c of chunks) assert.ok(c.tokenCount <= 120, `${c.tokenCount} tokens`);
    for (let i = 1; i < chunks.length; i++) {
      assert.ok(chunks[i]!.start > chunks[i - 1]!.start, "chunks advance");
      const between = doc.text.slice(chunks[i - 1]!.end, Math.max(chunks[i - 1]!.end, chunks[i]!.start));
      assert.match(between, /^\s*$/, "only white space between neighbours");
    }
    const overlaps = chunks.slice(1).map((c, i) => (c.start < chunks[i]!.end ? countTokens(doc.text.slice(c.start, chunks[i]!.end)) : 0));
    // Overlap is carried in whole pieces (words for fixed_size; paragraphs, sentences or words
    // for the recursive splitters), so some neighbours cannot share any; none shares too much.
    assert.ok(overlaps.filter((n) => n > 0).length >= chunks.length / 4, `only ${overlaps.filter((n) => n > 0).length} of ${chunks.length} chunks overlap`);
    for (const n of overlaps) assert.ok(n <= 20 + 2, `overlap of ${n} tokens`);
    assert.equal(chunks[0]!.start, 0);
    assert.equal(chunks.at(-1)!.end, doc.text.length);
  });
}

test("recursive: without overlap, chunks prefer paragraph boundaries", async () => {
  const doc = await handbook();
  const chunks = await chunk("recursive", doc, { chunk_size: 200, chunk_overlap: 0 });
  const blockStarts = new Set(doc.blocks.map((b) => b.start));
  const aligned = chunks.filter((c) => blockStarts.has(c.start)).length;
  assert.ok(aligned / chunks.length > 0.7, `${aligned}/${chunks.length} chunks start at a block`);
});

test("fixed_size: windows end between words and are all full but the last", async () => {
  const doc = await handbook();
  const chunks = await chunk("fixed_size", doc, { chunk_size: 64, chunk_overlap: 8 });
  for (const c of chunks.slice(0, -1)) assert.ok(c.tokenCount >= 56, `${c.tokenCount}`);
  for (const c of chunks) {
    assert.ok(c.start === 0 || /\s/.test(doc.text[c.start - 1]!));
    assert.ok(c.end === doc.text.length || /\s/.test(doc.text[c.end]!));
  }
});

test("semantic: sizes stay within min and max tokens", async () => {
  const doc = await handbook();
  const chunks = await chunk("semantic", doc, { min_tokens: 40, max_tokens: 200 });
  for (const c of chunks) assert.ok(c.tokenCount <= 200, `${c.tokenCount}`);
  chunks.forEach((c, i) => {
    if (c.tokenCount >= 40) return;
    // A small chunk is allowed only where merging it with either neighbour would pass max_tokens.
    for (const n of [chunks[i - 1], chunks[i + 1]].filter(Boolean)) {
      assert.ok(countTokens(doc.text.slice(Math.min(n!.start, c.start), Math.max(n!.end, c.end))) > 200, `chunk ${i} (${c.tokenCount} tokens) could merge`);
    }
  });
});

test("semantic_parent_child: children lie inside their parents and only children are searchable", async () => {
  const doc = await handbook();
  const drafts = await chunk("semantic_parent_child", doc, { child_size: 48, child_overlap: 8 });
  const parents = drafts.filter((d) => d.role === "parent");
  const children = drafts.filter((d) => d.role === "chunk");
  assert.ok(parents.length > 1 && children.length > parents.length);
  for (const child of children) {
    const parent = drafts[child.parentIndex!]!;
    assert.equal(parent.role, "parent");
    assert.ok(child.start >= parent.start && child.end <= parent.end);
    assert.ok(child.tokenCount <= 48);
  }
  for (const p of parents) assert.equal(p.parentIndex, null);
});

test("contextual_retrieval: every chunk gets a context from the title, heading path and section", async () => {
  const doc = await handbook();
  const chunks = await chunk("contextual_retrieval", doc);
  const tariffChunk = chunks.find((c) => c.text.includes("Standard | 24.6 cents per kWh"))!;
  assert.match(tariffChunk.context!, /^From "Harbor Light Energy Cooperative: Member and Operations Handbook", section "6\. Billing and Tariffs"/);
  assert.match(tariffChunk.context!, /The section says: /);
  for (const c of chunks) assert.ok(c.context && c.context.length > 20);
});

test("contextual_retrieval: with an LLM, the context is what the model writes", async () => {
  const doc = await handbook();
  const strategy = await registry.get("contextual_retrieval").create();
  const prompts: string[] = [];
  const drafts = await strategy.chunk({
    ...context(doc),
    llm: { name: "test", complete: async (prompt) => (prompts.push(prompt), `  context #${prompts.length} `) },
  });
  assert.equal(prompts.length, drafts.length);
  assert.match(prompts[0]!, /<document>\n[\s\S]*<\/document>[\s\S]*<chunk>/);
  assert.equal(drafts[0]!.context, "context #1");
});

test("options are validated when a strategy is created", async () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ["recursive", { chunk_size: 0 }, /chunk_size must be a whole number > 0/],
    ["fixed_size", { chunk_size: 100, chunk_overlap: 100 }, /chunk_overlap < chunk_size/],
    ["semantic", { breakpoint_percentile: 100 }, /between 0 and 100/],
    ["semantic", { min_tokens: 600, max_tokens: 500 }, /min_tokens <= max_tokens/],
    ["semantic_parent_child", { child_size: 10, child_overlap: 12 }, /child_overlap < child_size/],
    ["recursive", { size: 10 }, /unknown option "size"/],
    ["recursive", { chunk_size: "big" }, /must be a number/],
  ];
  for (const [name, options, message] of cases) {
    await assert.rejects(registry.get(name).create(options), (e: unknown) => e instanceof ValidationError && message.test(e.message));
  }
});

test("an unknown strategy name is an error that lists the valid ones", () => {
  assert.throws(
    () => registry.get("sliding"),
    /unknown strategy "sliding" \(valid: recursive, fixed_size, semantic, contextual_retrieval, semantic_parent_child, structure\)/,
  );
});

for (const name of ["recursive", "fixed_size"]) {
  test(`${name}: a 100,000-character word is cut into full chunks that rebuild it exactly`, async () => {
    const word = longWord(100_000, "letters", 21);
    const doc: StoredDocument = {
      id: "doc_word",
      filename: "w.docx",
      title: "w",
      format: "docx",
      text: word,
      blocks: [],
      paragraphCount: 1,
      chunkCounts: {},
      createdAt: "",
    };
    const chunks = await chunk(name, doc, { chunk_size: 128, chunk_overlap: 16 });
    assert.equal(chunks.map((c) => c.text).join(""), word, "chunks tile the word in order, without overlap");
    for (const c of chunks) {
      assert.equal(c.tokenCount, countTokens(c.text));
      assert.ok(c.tokenCount <= 128, `${c.tokenCount} tokens`);
    }
    // Each chunk is as long as the bisection allows: one more character would not fit.
    for (const c of chunks.slice(0, -1)) assert.ok(countTokens(word.slice(c.start, c.end + 1)) > 128 || c.tokenCount >= 120);
  });
}
