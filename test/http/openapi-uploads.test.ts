import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.js";

test("the served OpenAPI document describes the upload routes' request bodies: multipart `file` (and /v1's `domain`), JSON document ids", async () => {
  const t = await startTestServer();
  try {
    const openapi = (await t.request("GET", "/openapi.json")).body;
    const body = (path: string) => openapi.paths[path]?.post?.requestBody?.content;
    const file = { type: "string", format: "binary" };

    const documents = body("/documents")?.["multipart/form-data"]?.schema;
    assert.deepEqual(documents?.required, ["file"], JSON.stringify(openapi.paths["/documents"]?.post));
    assert.deepEqual(Object.keys(documents.properties), ["file"]);
    assert.deepEqual({ type: documents.properties.file.type, format: documents.properties.file.format }, file);
    assert.match(documents.properties.file.description, /\.pdf.*max_upload_mb/);
    // The option of POST /documents is its query parameter.
    assert.ok(openapi.paths["/documents"].post.parameters.some((p: { name: string; in: string }) => p.name === "new" && p.in === "query"));

    const added = body("/collections/{collection_id}/documents");
    assert.deepEqual(Object.keys(added ?? {}).sort(), ["application/json", "multipart/form-data"]);
    assert.deepEqual(added["multipart/form-data"].schema.required, ["file"]);
    assert.equal(added["multipart/form-data"].schema.properties.file.format, "binary");
    assert.deepEqual(added["application/json"].schema.required, ["document_ids"]);
    assert.equal(added["application/json"].schema.properties.document_ids.type, "array");

    const files = body("/v1/files")?.["multipart/form-data"]?.schema;
    assert.deepEqual(files?.required, ["file", "domain"], JSON.stringify(openapi.paths["/v1/files"]?.post));
    assert.equal(files.properties.file.format, "binary");
    assert.equal(files.properties.domain.type, "string");

    // Documented only: the routes still read (and refuse) their bodies themselves, as before.
    const uploaded = await t.upload("note.txt", Buffer.from("Some text to keep, long enough to chunk."));
    assert.equal(uploaded.status, 201);
    const form = new FormData();
    form.append("other", "x");
    const refused = await fetch(`${t.url}/documents`, { method: "POST", body: form });
    assert.equal(refused.status, 422);
  } finally {
    await t.close();
  }
});
