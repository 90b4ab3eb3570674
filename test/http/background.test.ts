import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { handbookBytes } from "../helpers/documents.js";

test("a background request is validated exactly like the synchronous one before its 202, and its job starts pending", async () => {
  const t = await startTestServer();
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body.id as string;
    writeFileSync(
      join(t.ws.dir, "questions", "elsewhere.json"),
      JSON.stringify([{ question: "Where?", references: [{ text: "a sentence that is not in the handbook at all" }] }]),
    );
    const cases: Array<[string, string, unknown]> = [
      ["unknown strategy", `/documents/${doc}/process`, { strategies: ["nope"] }],
      ["missing document", "/documents/doc_missing/process", { strategies: ["recursive"] }],
      ["bench: unknown strategy", "/benchmarks", { document_id: doc, strategies: ["nope"], questions_file: "elsewhere.json" }],
      ["bench: missing questions file", "/benchmarks", { document_id: doc, questions_file: "absent.json" }],
      ["bench: references not in the document", "/benchmarks", { document_id: doc, strategies: ["recursive"], questions_file: "elsewhere.json" }],
      ["bench: missing document", "/benchmarks", { document_id: "doc_missing", questions: [{ question: "Why?" }] }],
      ["bad variant parameter", `/documents/${doc}/process`, { strategies: ["recursive@chunk_sze=128"] }],
      ["bench: bad variant value", "/benchmarks", { document_id: doc, strategies: ["recursive@retrieval=fuzzy"], questions: [{ question: "Why?" }] }],
      [
        "bench: sweep over the limit",
        "/benchmarks",
        { document_id: doc, sweep: ["recursive:chunk_size=100,200,300"], max_variants: 2, questions: [{ question: "Why?" }] },
      ],
    ];
    for (const [name, path, body] of cases) {
      const sync = await t.request("POST", path, body);
      const background = await t.request("POST", `${path}?background=true`, body);
      assert.ok(sync.status >= 400 && sync.status < 500, `${name}: ${sync.status}`);
      assert.deepEqual([background.status, background.body], [sync.status, sync.body], name);
    }
    assert.equal((await t.request("GET", "/jobs")).body.total, 0, "no job was created for a refused request");

    const enqueued = await t.request("POST", `/documents/${doc}/process?background=true`, { strategies: ["recursive"] });
    assert.deepEqual([enqueued.status, enqueued.body.status], [202, "pending"]);
  } finally {
    await t.close();
  }
});

/**
 * A server processing the handbook with contextual_retrieval in the background, its job running:
 * a chat model stand-in that answers every context request after 40 ms keeps it busy for seconds.
 */
async function runningProcessJob() {
  const stub = await startOpenAiStub({ reply: () => "Context of the chunk.", delayMs: 40 });
  const t = await startTestServer({ generator: "openai:chat" }, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" });
  const doc = (await t.upload("handbook.docx", handbookBytes())).body.id as string;
  const job = (await t.request("POST", `/documents/${doc}/process?background=true`, { strategies: ["contextual_retrieval"] })).body.job_id as string;
  while ((await t.request("GET", `/jobs/${job}`)).body.status !== "running") await new Promise((r) => setTimeout(r, 10));
  return { stub, t, doc, job };
}

test("deleting a document fails its running job with a clear reason, never a foreign-key message", async () => {
  const { stub, t, doc, job } = await runningProcessJob();
  try {
    assert.equal((await t.request("DELETE", `/documents/${doc}`)).status, 200);
    let polled = await t.request("GET", `/jobs/${job}`);
    for (let i = 0; i < 200 && t.server && polled.body.status === "running"; i++) polled = await t.request("GET", `/jobs/${job}`);
    assert.deepEqual([polled.body.status, polled.body.error], ["failed", `cancelled: document handbook.docx (${doc}) was deleted`]);
    await new Promise((r) => setTimeout(r, 300)); // the aborted work winds down; the job must stay failed
    const final = await t.request("GET", `/jobs/${job}`);
    assert.equal(final.body.status, "failed");
    assert.doesNotMatch(JSON.stringify(final.body), /FOREIGN KEY/);
  } finally {
    await t.close();
    await stub.close();
  }
});

test("POST /jobs/{id}/cancel stops a running job and fails it with the reason; an ended job is 409, an unknown one 404", async () => {
  const { stub, t, doc, job } = await runningProcessJob();
  try {
    const cancelled = await t.request("POST", `/jobs/${job}/cancel`);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual([cancelled.body.status, cancelled.body.error], ["failed", "cancelled: stopped at a client's request"]);
    // The work stops: no more chat calls a moment later, and the job stays failed.
    await new Promise((r) => setTimeout(r, 300));
    const calls = stub.requests.length;
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(stub.requests.length, calls, "no chat call after the cancel");
    assert.equal((await t.request("GET", `/jobs/${job}`)).body.status, "failed");
    assert.equal((await t.request("GET", `/documents/${doc}/chunks?strategy=contextual_retrieval`)).status, 404, "nothing committed");
    // A job that ended cannot be cancelled; an unknown one is not found.
    const again = await t.request("POST", `/jobs/${job}/cancel`);
    assert.equal(again.status, 409, again.text);
    assert.match(again.body.detail, /has already ended \(failed\)/);
    assert.equal((await t.request("POST", "/jobs/job_missing/cancel")).status, 404);
  } finally {
    await t.close();
    await stub.close();
  }
});
