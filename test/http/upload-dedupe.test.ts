import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.js";
import { handbookBytes } from "../helpers/documents.js";

test("POST /documents: of several stored copies of the same bytes, the one with the uploaded file's name is returned, else the newest", async () => {
  const t = await startTestServer();
  try {
    const handbook = (await t.upload("handbook.docx", handbookBytes())).body.id as string;
    const copy = (await t.upload("copy.docx", handbookBytes(), {}, "?new=true")).body.id as string;
    assert.notEqual(copy, handbook);

    // The older copy, by its name: not the newest (copy.docx).
    const again = await t.upload("handbook.docx", handbookBytes());
    assert.equal(again.status, 200);
    assert.deepEqual([again.body.id, again.body.filename, again.body.already_stored], [handbook, "handbook.docx", true]);
    const newest = await t.upload("copy.docx", handbookBytes());
    assert.deepEqual([newest.body.id, newest.body.already_stored], [copy, true]);
    // A name no copy has: the newest copy.
    const other = await t.upload("other.docx", handbookBytes());
    assert.deepEqual([other.body.id, other.body.filename], [copy, "copy.docx"]);
    assert.equal((await t.request("GET", "/documents")).body.total, 2, "nothing more stored");

    const route = (await t.request("GET", "/openapi.json")).body.paths["/documents"].post;
    assert.match(route.description, /of several stored copies, the newest with the uploaded file's name, else the newest/);
  } finally {
    await t.close();
  }
});
