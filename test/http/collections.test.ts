import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.js";
import { buildDocx } from "../helpers/documents.js";

async function postFile(url: string, filename: string, bytes: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([bytes]), filename);
  const response = await fetch(url, { method: "POST", body: form });
  return { status: response.status, body: (await response.json()) as any };
}

test("/collections: create, add by id and by upload, benchmark with collection_id (also in the background), remove, delete", async () => {
  const t = await startTestServer();
  try {
    const tide = await buildDocx([{ h: "Tides" }, { p: "High tide at the north pier is at seven in the morning during spring." }]);
    const mill = await buildDocx([{ h: "Mill" }, { p: "The water mill grinds barley on Tuesdays and wheat on Thursdays." }]);
    const tideId = (await t.upload("tides.docx", tide)).body.id as string;

    const created = await t.request("POST", "/collections", { name: "coast", document_ids: [tideId] });
    assert.equal(created.status, 201);
    assert.match(created.body.id, /^col_/);
    assert.deepEqual(created.body.documents, [{ id: tideId, filename: "tides.docx" }]);
    assert.equal((await t.request("POST", "/collections", { name: "coast" })).status, 409);
    assert.equal((await t.request("POST", "/collections", { name: "x", document_ids: ["doc_missing"] })).status, 404);
    assert.equal((await t.request("GET", "/collections/coast")).body.id, created.body.id, "by name too");

    const added = await postFile(`${t.url}/collections/${created.body.id}/documents`, "mill.docx", mill);
    assert.equal(added.status, 200);
    assert.deepEqual(
      added.body.documents.map((d: any) => d.filename),
      ["tides.docx", "mill.docx"],
    );
    const again = await t.request("POST", `/collections/${created.body.id}/documents`, { document_ids: [tideId] });
    assert.equal(again.body.documents.length, 2, "a document already in it keeps its place");
    assert.equal((await t.request("POST", `/collections/${created.body.id}/documents`, { document_ids: [] })).status, 422);
    assert.equal((await t.request("POST", `/collections/${created.body.id}/documents`, { ids: [tideId] })).status, 422);
    assert.equal((await t.request("POST", "/collections/col_missing/documents", { document_ids: [tideId] })).status, 404);

    const questions = [
      {
        question: "When is high tide at the north pier?",
        references: [{ document: "tides.docx", text: "High tide at the north pier is at seven in the morning" }],
      },
      { question: "What does the mill grind on Tuesdays?", references: [{ document: "mill.docx", text: "The water mill grinds barley on Tuesdays" }] },
    ];
    const body = { collection_id: "coast", questions, strategies: ["recursive", "fixed_size"], top_k: 2 };
    const bench = await t.request("POST", "/benchmarks", body);
    assert.equal(bench.status, 201, JSON.stringify(bench.body));
    assert.equal(bench.body.document_id, created.body.id);
    assert.equal(bench.body.collection.name, "coast");
    assert.deepEqual(
      bench.body.per_document.map((d: any) => [d.filename, d.questions]),
      [
        ["tides.docx", 1],
        ["mill.docx", 1],
      ],
    );
    const both = await t.request("POST", "/benchmarks", { ...body, document_id: tideId });
    assert.deepEqual([both.status, both.body.type], [422, "ValidationError"]);
    const neither = await t.request("POST", "/benchmarks", { questions, strategies: ["recursive"] });
    assert.deepEqual([neither.status, neither.body.type], [422, "ValidationError"]);
    assert.equal((await t.request("POST", "/benchmarks", { ...body, collection_id: "nope" })).status, 404);

    const job = await t.request("POST", "/benchmarks?background=true", body);
    assert.equal(job.status, 202);
    let polled = await t.request("GET", `/jobs/${job.body.job_id}`);
    for (let i = 0; i < 500 && !["completed", "failed"].includes(polled.body.status); i++) {
      await new Promise((r) => setTimeout(r, 20));
      polled = await t.request("GET", `/jobs/${job.body.job_id}`);
    }
    assert.equal(polled.body.status, "completed", JSON.stringify(polled.body));

    const removed = await t.request("DELETE", `/collections/coast/documents/${tideId}`);
    assert.deepEqual(
      removed.body.documents.map((d: any) => d.filename),
      ["mill.docx"],
    );
    assert.equal((await t.request("GET", `/documents`)).body.total, 2, "the document itself stays");
    assert.equal((await t.request("DELETE", `/collections/coast/documents/${tideId}`)).status, 404);
    const list = await t.request("GET", "/collections");
    assert.deepEqual([list.body.total, list.body.items[0].name], [1, "coast"]);
    assert.equal((await t.request("DELETE", "/collections/coast")).body.deleted, true);
    assert.equal((await t.request("GET", "/collections/coast")).status, 404);
    const openapi = await t.request("GET", "/openapi.json");
    for (const path of ["/collections", "/collections/{collection_id}", "/collections/{collection_id}/documents"]) assert.ok(path in openapi.body.paths, path);
  } finally {
    await t.close();
  }
});

test("/collections: malformed input is a 4xx with the error body, never a 500, and stores nothing", async () => {
  const t = await startTestServer();
  try {
    const id = (await t.request("POST", "/collections", { name: "c" })).body.id as string;
    const cases: Array<[string, string, unknown, Record<string, string>?]> = [
      ["POST", "/collections", { name: "x".repeat(101) }],
      ["POST", "/collections", { name: "" }],
      ["POST", "/collections", { name: "ok", extra: 1 }],
      ["POST", "/collections", { name: "ok", document_ids: "doc_1" }],
      ["POST", "/collections", "{not json"],
      ["POST", `/collections/${id}/documents`, { document_ids: [1, 2] }],
      ["POST", `/collections/${id}/documents`, "[]"],
      ["POST", `/collections/${id}/documents`, "--x\r\nbroken", { "content-type": "multipart/form-data; boundary=x" }],
      ["POST", `/collections/${id}/documents`, "plain", { "content-type": "text/plain" }],
      ["POST", "/benchmarks", { collection_id: "", questions: [{ question: "q" }] }],
      ["POST", "/benchmarks", { collection_id: id, questions: [{ question: "q" }], top_k: 1e9 }],
    ];
    for (const [method, path, body, headers] of cases) {
      const r = await t.request(method, path, body, headers);
      assert.ok(r.status >= 400 && r.status < 500, `${method} ${path} ${JSON.stringify(body).slice(0, 60)}: ${r.status} ${r.text.slice(0, 200)}`);
      assert.equal(typeof r.body?.detail, "string", `${path}: {detail, type}`);
      assert.equal(typeof r.body?.type, "string");
    }
    const list = await t.request("GET", "/collections");
    assert.deepEqual(
      list.body.items.map((c: any) => [c.name, c.documents.length]),
      [["c", 0]],
      "nothing was created or added",
    );
  } finally {
    await t.close();
  }
});

test("a background benchmark of a collection runs past the runner's deleted-document checks and completes", async () => {
  const t = await startTestServer();
  try {
    const tide = await buildDocx([{ h: "Tides" }, { p: "High tide at the north pier is at seven in the morning during spring." }]);
    const mill = await buildDocx([{ h: "Mill" }, { p: "The water mill grinds barley on Tuesdays and wheat on Thursdays." }]);
    const ids = [(await t.upload("tides.docx", tide)).body.id, (await t.upload("mill.docx", mill)).body.id];
    await t.request("POST", "/collections", { name: "long", document_ids: ids });
    // Enough questions to run for seconds: the runner checks every second that its jobs' documents exist.
    const questions = Array.from({ length: 400 }, (_, i) => ({
      question: `${i}: when is high tide at the north pier?`,
      references: [{ document: "tides.docx", text: "High tide at the north pier" }],
    }));
    const job = await t.request("POST", "/benchmarks?background=true", {
      collection_id: "long",
      questions,
      strategies: ["recursive", "fixed_size", "structure"],
    });
    assert.equal(job.status, 202, job.text);
    const started = performance.now();
    let polled = await t.request("GET", `/jobs/${job.body.job_id}`);
    while (!["completed", "failed"].includes(polled.body.status) && performance.now() - started < 120_000) {
      await new Promise((r) => setTimeout(r, 50));
      polled = await t.request("GET", `/jobs/${job.body.job_id}`);
    }
    assert.equal(polled.body.status, "completed", polled.body.error);
    assert.ok(performance.now() - started > 1100, "the job outlived at least one check");
  } finally {
    await t.close();
  }
});
