// Issue 38 item 5 (HTTP part): a document's extracted text and blocks, and a strategy's chunks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.js";
import { handbookBytes } from "../helpers/documents.js";

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
  } finally {
    await t.close();
  }
});
