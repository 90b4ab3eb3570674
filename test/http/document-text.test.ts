// Issue 38 item 5 (HTTP part): a document's extracted text and blocks, and a strategy's chunks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.js";
import { handbookBytes } from "../helpers/documents.js";
import { buildGlyphCodePdf } from "../helpers/pdf.js";

test("GET /documents/{id} gives the extracted text and blocks; GET /documents/{id}/chunks?strategy= a processed strategy's chunks", async () => {
  const t = await startTestServer();
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body.id as string;
    const shown = await t.request("GET", `/documents/${doc}`);
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    const { text, blocks } = shown.body as { text: string; blocks: Array<{ kind: string; start: number; end: number; text: string }> };
    assert.ok(blocks.length > 10 && blocks.every((b) => text.slice(b.start, b.end) === b.text));
    assert.equal(blocks[0]!.kind, "heading");

    const before = await t.request("GET", `/documents/${doc}/chunks?strategy=recursive`);
    assert.equal(before.status, 404, JSON.stringify(before.body));
    assert.match(JSON.stringify(before.body), /has no recursive chunks: process it first/);
    assert.equal((await t.request("POST", `/documents/${doc}/process`, { strategies: ["recursive"] })).status, 200);
    const chunks = await t.request("GET", `/documents/${doc}/chunks?strategy=recursive`);
    assert.equal(chunks.status, 200, JSON.stringify(chunks.body));
    const listed = chunks.body as { strategy: string; chunks: Array<{ start: number; end: number; text: string; token_count: number }> };
    assert.equal(listed.strategy, "recursive");
    assert.ok(listed.chunks.length > 5);
    for (const c of listed.chunks) assert.equal(text.slice(c.start, c.end), c.text);
    assert.equal((await t.request("GET", `/documents/${doc}/chunks`)).status, 422, "the strategy is required");
    assert.equal((await t.request("GET", `/documents/${doc}/chunks?strategy=recursive@chunk_sze=1`)).status, 422);
    assert.equal((await t.request("GET", "/documents/doc_0000000000000000")).status, 404);

    // Issue 38 item 2: what parsing left out is in the upload's answer; a clean document's list is empty.
    assert.deepEqual((await t.upload("handbook-copy.docx", handbookBytes(), {}, "?new=true")).body.warnings, []);
    const readable = { lines: ["The harbour pilot boards ships at the outer buoy.", "Tugs take over at the north quay in any weather."] };
    const mixed = await t.upload("mixed.pdf", buildGlyphCodePdf([readable, readable, readable, { lines: ["THE HARBOUR PILOT"], glyphCodes: true }]));
    assert.equal(mixed.status, 201, JSON.stringify(mixed.body));
    assert.deepEqual(mixed.body.warnings, [
      "page 4 of mixed.pdf is glyph codes or control characters, not text: left out of the document (run OCR first for it)",
    ]);
    const stored = await t.request("GET", `/documents/${mixed.body.id}`);
    assert.deepEqual([...new Set((stored.body.blocks as Array<{ page: number }>).map((b) => b.page))], [1, 2, 3]);
  } finally {
    await t.close();
  }
});
