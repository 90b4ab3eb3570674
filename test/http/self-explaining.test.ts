import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.js";

test("validation errors name the field and the values a choice allows, on every enum of both surfaces", async () => {
  const t = await startTestServer();
  try {
    const cases: Array<[string, string, unknown, RegExp]> = [
      ["GET", "/benchmarks/exp_x/report?view=fancy", undefined, /^invalid querystring: view must be one of: managerial, technical$/],
      ["GET", "/benchmarks/exp_x/report?format=pdf", undefined, /^invalid querystring: format must be one of: html, md, json$/],
      ["GET", "/jobs?status=lost", undefined, /^invalid querystring: status must be one of: pending, running, completed, failed$/],
      ["GET", "/jobs?job_type=x", undefined, /^invalid querystring: job_type must be one of: benchmark, process, question_generation, process_unit$/],
      ["GET", "/documents?colour=1", undefined, /^invalid querystring: unknown field "colour"$/],
      ["GET", "/documents?limit=0", undefined, /^invalid querystring: limit must be >= 1$/],
      ["POST", "/queries", { strategy: "recursive", question: "Q?" }, /^invalid body: document_id is required$/],
      ["POST", "/queries", { document_id: "d", strategy: "recursive", question: "Q?", colour: 1 }, /^invalid body: unknown field "colour"$/],
    ];
    for (const [method, path, body, detail] of cases) {
      const r = await t.request(method, path, body);
      assert.deepEqual([r.status, r.body.type], [422, "ValidationError"], `${method} ${path}: ${r.text}`);
      assert.match(r.body.detail, detail, `${method} ${path}`);
    }
    // /v1 answers in its own envelope with the same words.
    await t.ws.app.tenants.createTenant("acme");
    const key = `Bearer ${(await t.ws.app.tenants.createApiKey("acme", ["points:read"])).secret}`;
    const v1 = await t.request("GET", "/v1/points?colour=1", undefined, { authorization: key });
    assert.equal(v1.status, 422, v1.text);
    assert.equal(v1.body.error.message, 'invalid querystring: unknown field "colour"');
  } finally {
    await t.close();
  }
});

test("/readyz gives the questions directory questions_file resolves in, and whether it exists", async () => {
  const t = await startTestServer();
  try {
    const dir = join(t.ws.dir, "questions");
    const ready = await t.request("GET", "/readyz");
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: "ready", details: { questions_dir: dir, questions_dir_exists: true } });
    rmSync(dir, { recursive: true, force: true });
    assert.deepEqual((await t.request("GET", "/readyz")).body.details, { questions_dir: dir, questions_dir_exists: false });
  } finally {
    await t.close();
  }
});

test("the OpenAPI document speaks to users: no section of a spec they do not have, and it says where questions_file is read", async () => {
  const t = await startTestServer();
  try {
    const text = (await t.request("GET", "/openapi.json")).text;
    assert.doesNotMatch(text, /SPEC|§|\bspec\b|our extension/i);
    const doc = JSON.parse(text);
    assert.match(doc.info.description, /questions_file` is a path inside the server's questions directory \(`questions_dir`, shown by `GET \/readyz`/);
    assert.match(doc.paths["/readyz"].get.description, /details\.questions_dir/);
    assert.match(doc.paths["/benchmarks"].post.requestBody.content["application/json"].schema.properties.questions_file.description, /details\.questions_dir/);
  } finally {
    await t.close();
  }
});
