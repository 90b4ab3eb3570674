import { test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { handbookBytes } from "../helpers/documents.js";

/** A multipart body of one `file` part (and text fields), with its content type. */
function multipart(filename: string, bytes: Buffer, fields: Record<string, string> = {}): { body: Buffer; contentType: string } {
  const boundary = "----chunkevalboundary";
  const parts = [
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Starts an upload and sends only the first half of its body; `finish` sends the rest and returns the status. */
function halfSentUpload(t: TestServer, path: string, body: Buffer, contentType: string, headers: Record<string, string> = {}) {
  const url = new URL(t.url + path);
  const req = httpRequest({
    host: url.hostname,
    port: url.port,
    path,
    method: "POST",
    headers: { "content-type": contentType, "content-length": body.length, ...headers },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
  });
  req.write(body.subarray(0, body.length >> 1));
  return {
    finish: async () => {
      req.end(body.subarray(body.length >> 1));
      return answer;
    },
  };
}

test("upload bytes in flight past max_inflight_upload_mb: 503 with Retry-After before the body is read; admitted once the first ends", async () => {
  const t = await startTestServer({ max_inflight_upload_mb: 1 });
  try {
    const first = multipart("first.txt", Buffer.alloc(700 * 1024, "a first upload that is held open. "));
    const held = halfSentUpload(t, "/documents", first.body, first.contentType);
    await new Promise((r) => setTimeout(r, 300)); // the server has admitted it and reads its body
    const second = multipart("second.txt", Buffer.alloc(500 * 1024, "a second upload. "));
    const refused = await fetch(`${t.url}/documents`, { method: "POST", headers: { "content-type": second.contentType }, body: second.body });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get("retry-after"), "5");
    const body = (await refused.json()) as { type: string; detail: string };
    assert.equal(body.type, "ServerBusyError");
    assert.match(body.detail, /max_inflight_upload_mb \(1\.0 MB\)/);
    assert.equal(await held.finish(), 201);
    const retried = await fetch(`${t.url}/documents`, { method: "POST", headers: { "content-type": second.contentType }, body: second.body });
    assert.equal(retried.status, 201, "the budget is given back when a response ends");
    assert.equal((await t.request("GET", "/documents")).body.total, 2, "nothing of the refused attempt was stored");
  } finally {
    await t.close();
  }
});

test("synchronous jobs past max_sync_jobs are 503 with Retry-After; a synchronous job whose client disconnects is cancelled", async () => {
  // A slow embedder keeps a processing run going long enough to overlap and to disconnect from.
  const stub = await startOpenAiStub({ delayMs: 300 });
  // Two texts per call: the run is many calls, so one that went on after the disconnect would be seen.
  const t = await startTestServer(
    { embedder: "openai:slow", max_sync_jobs: 1, embed_batch_size: 2 },
    { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" },
  );
  try {
    const doc = await t.upload("handbook.docx", handbookBytes());
    const controller = new AbortController();
    const first = fetch(`${t.url}/documents/${doc.body.id}/process`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ strategies: ["recursive", "fixed_size"] }),
      signal: controller.signal,
    }).catch((error: Error) => error);
    await new Promise((r) => setTimeout(r, 800)); // it embeds
    const second = await t.request("POST", `/documents/${doc.body.id}/process`, { strategies: ["structure"] });
    assert.equal(second.status, 503, second.text);
    assert.equal(second.headers.get("retry-after"), "5");
    assert.match(second.body.detail, /max_sync_jobs/);
    // The client goes away: the run stops instead of embedding on for nobody.
    controller.abort();
    assert.ok((await first) instanceof Error);
    await new Promise((r) => setTimeout(r, 1000));
    const calls = stub.requests.length;
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(stub.requests.length, calls, "no embedding request after the cancellation settled");
    assert.ok(calls < 40, `the run stopped early (${calls} embedding calls)`);
    // And the slot is free again.
    const third = await t.request("POST", `/documents/${doc.body.id}/process`, { strategies: ["structure"] });
    assert.equal(third.status, 200, third.text);
  } finally {
    await t.close();
    await stub.close();
  }
});

test("background jobs past max_queued_jobs waiting are 503 with Retry-After; nothing is queued for them", async () => {
  // The embedding calls are held until the test is done, so the first job is still running (not
  // ended, which would let the second start and free the queue) whatever the machine's load.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const stub = await startOpenAiStub({ before: () => held });
  const t = await startTestServer({ embedder: "openai:slow", max_queued_jobs: 1 }, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" });
  try {
    const doc = await t.upload("handbook.docx", handbookBytes());
    const send = (strategy: string) => t.request("POST", `/documents/${doc.body.id}/process?background=true`, { strategies: [strategy] });
    const first = await send("recursive");
    assert.equal(first.status, 202); // runs (max_background_jobs 1)
    for (let waited = 0; (await t.request("GET", `/jobs/${first.body.job_id}`)).body.status !== "running"; waited += 50) {
      assert.ok(waited < 30_000, "the first job started running");
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal((await send("fixed_size")).status, 202); // waits
    const refused = await send("structure");
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.headers.get("retry-after"), "5");
    assert.match(refused.body.detail, /max_queued_jobs/);
    assert.equal((await t.request("GET", "/jobs")).body.total, 2);
  } finally {
    release();
    await t.close();
    await stub.close();
  }
});

test("evaluation processing refuses a strategy that yields more chunks than max_chunks_per_document, naming the setting", async () => {
  const t = await startTestServer({ max_chunks_per_document: 50 });
  try {
    const doc = await t.upload("handbook.docx", handbookBytes());
    const r = await t.request("POST", `/documents/${doc.body.id}/process`, { strategies: ["recursive", "fixed_size@chunk_size=8:chunk_overlap=0"] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.strategies_completed.map((s: any) => s.strategy),
      ["recursive"],
    );
    assert.equal(r.body.strategies_failed.length, 1);
    assert.match(r.body.strategies_failed[0].error, /yields \d+ chunks with fixed_size, more than max_chunks_per_document \(50\)/);
  } finally {
    await t.close();
  }
});

test("a contextual_retrieval run past max_chunks_per_document is refused before its first chat-model call", async () => {
  const stub = await startOpenAiStub({ reply: () => "Context of the chunk." });
  const chatCalls = () => stub.requests.filter((r) => r.path === "/v1/chat/completions").length;
  const t = await startTestServer(
    { generator: "openai:chat", max_chunks_per_document: 5 },
    { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" },
  );
  try {
    const doc = await t.upload("handbook.docx", handbookBytes());
    const r = await t.request("POST", `/documents/${doc.body.id}/process`, { strategies: ["contextual_retrieval"] });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.strategies_failed[0]?.error ?? "", /yields \d+ chunks with contextual_retrieval, more than max_chunks_per_document \(5\)/, r.text);
    assert.equal(chatCalls(), 0, "no context was asked of the model for a document that is refused");
  } finally {
    await t.close();
    await stub.close();
  }
});

test("/v1: an upload past INGESTION_MAX_CONCURRENCY is 503 concurrency_limit with Retry-After before its body is read, and leaves no job row", async () => {
  const stub = await startOpenAiStub({ delayMs: 300 });
  const t = await startTestServer(
    { embedder: "openai:slow" },
    { INGESTION_MAX_CONCURRENCY: "1", CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" },
  );
  try {
    await t.ws.app.tenants.createTenant("acme");
    const auth = `Bearer ${(await t.ws.app.tenants.createApiKey("acme", ["files:write", "domains:write"])).secret}`;
    assert.equal((await t.request("POST", "/v1/domains", { domain: "d", display_name: "D" }, { authorization: auth })).status, 201);
    const upload = () => {
      const form = new FormData();
      form.append("domain", "d");
      form.append("file", new Blob([handbookBytes()]), "handbook.docx");
      return fetch(`${t.url}/v1/files`, { method: "POST", body: form, headers: { authorization: auth } });
    };
    const first = upload();
    await new Promise((r) => setTimeout(r, 1000)); // it is embedding
    const second = await upload();
    assert.equal(second.status, 503);
    assert.equal(second.headers.get("retry-after"), "5");
    assert.equal(((await second.json()) as any).error.code, "concurrency_limit");
    assert.equal((await first).status, 201);
    assert.equal((await t.ws.internals.ingestionRepo.jobs()).length, 1, "the refused upload left no job row");
  } finally {
    await t.close();
    await stub.close();
  }
});
