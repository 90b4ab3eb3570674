import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../../src/transports/http/server.js";
import { composeChunkeval } from "../../src/chunkeval.js";
import { loadConfig } from "../../src/config/load.js";
import { startTestServer } from "../helpers/server.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { buildDocx, handbookBytes } from "../helpers/documents.js";
import { storedPointRows } from "../helpers/stored-points.js";
import { storedOriginals } from "../helpers/originals.js";
import { keysFor, settled, uploadFile } from "../helpers/v1-requests.js";

test("/v1 keys, scopes, the error envelope and the correlation id", async () => {
  const t = await startTestServer();
  try {
    const k = await keysFor(t);
    const none = await t.request("GET", "/v1/domains", undefined, { "x-request-id": "client-req-1" });
    assert.equal(none.status, 401);
    assert.deepEqual(Object.keys(none.body.error).sort(), ["code", "message", "request_id"]);
    assert.equal(none.body.error.code, "unauthorized");
    assert.equal(none.body.error.request_id, "client-req-1");
    assert.equal(none.headers.get("x-request-id"), "client-req-1");
    assert.equal((await t.request("GET", "/v1/domains", undefined, { authorization: "Bearer cek_000000000000_nope" })).status, 401);
    const forbidden = await t.request("POST", "/v1/domains", { domain: "docs", display_name: "Docs" }, { authorization: k.uploader });
    assert.deepEqual([forbidden.status, forbidden.body.error.code], [403, "insufficient_scope"]);
    assert.match(forbidden.headers.get("x-request-id")!, /^[0-9a-f-]{36}$/, "generated when the client sent none");

    const keyId = (await t.ws.app.tenants.listKeys())[0]!.id;
    await t.ws.app.tenants.revokeKey(keyId);
    await assert.rejects(async () => await t.ws.app.tenants.revokeKey(keyId), /active key not found/);
    assert.equal((await t.request("GET", "/v1/domains", undefined, { authorization: k.admin })).status, 401, "a revoked key is refused");
    assert.equal(
      (await t.ws.internals.tenantsRepo.listKeys()).every((key) => !JSON.stringify(key).includes(k.reader.slice(-20))),
      true,
      "secrets are not stored",
    );
  } finally {
    await t.close();
  }
});

test("/v1 domains: create, duplicate 409, patch only display_name, disable blocks uploads, enable allows them", async () => {
  const t = await startTestServer();
  try {
    const k = await keysFor(t);
    const h = { authorization: k.admin };
    const created = await t.request("POST", "/v1/domains", { domain: "handbooks", display_name: "Handbooks" }, h);
    assert.equal(created.status, 201);
    assert.deepEqual([created.body.domain, created.body.display_name, created.body.status], ["handbooks", "Handbooks", "active"]);
    assert.equal((await t.request("POST", "/v1/domains", { domain: "handbooks", display_name: "Again" }, h)).status, 409);
    for (const body of [
      { domain: "x", display_name: "X", tenant_id: "ten_1" },
      { domain: "y", display_name: "Y", version: 2 },
    ]) {
      const r = await t.request("POST", "/v1/domains", body, h);
      assert.deepEqual([r.status, r.body.error.code], [422, "validation_error"], JSON.stringify(body));
    }
    assert.equal((await t.request("PATCH", "/v1/domains/handbooks", { domain: "renamed", display_name: "Z" }, h)).status, 422);
    const patched = await t.request("PATCH", "/v1/domains/handbooks", { display_name: "Company handbooks" }, h);
    assert.deepEqual([patched.status, patched.body.display_name, patched.body.domain], [200, "Company handbooks", "handbooks"]);
    assert.equal((await t.request("GET", "/v1/domains", undefined, { authorization: k.reader })).body.total, 1);

    const first = await uploadFile(t, k.uploader, "handbooks", "handbook.docx", handbookBytes());
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal((await t.request("POST", "/v1/domains/handbooks/disable", undefined, h)).body.status, "disabled");
    const blocked = await uploadFile(t, k.uploader, "handbooks", "other.docx", handbookBytes());
    assert.deepEqual([blocked.status, blocked.body.error.code], [400, "unknown_domain"]);
    const live = await t.request("GET", "/v1/points?domain=handbooks&limit=500", undefined, { authorization: k.reader });
    assert.equal(live.body.total, first.body.chunks_indexed, "already indexed points are untouched");
    assert.equal((await t.request("POST", "/v1/domains/handbooks/enable", undefined, h)).body.status, "active");
    assert.equal((await uploadFile(t, k.uploader, "handbooks", "other.docx", handbookBytes())).status, 201);
  } finally {
    await t.close();
  }
});

test("POST /v1/files: unknown domain writes nothing; ingestion indexes searchable points; re-upload soft-deletes the old version", async () => {
  const t = await startTestServer();
  try {
    const k = await keysFor(t);
    const repo = t.ws.internals.ingestionRepo;
    const unknown = await uploadFile(t, k.uploader, "nowhere", "handbook.docx", handbookBytes());
    assert.deepEqual([unknown.status, unknown.body.error.code], [400, "unknown_domain"]);
    assert.equal((await repo.jobs()).length, 0, "no job row");
    assert.equal(await repo.countSourceFiles(), 0, "no source file");
    assert.equal(await storedOriginals(t.ws.app.config, "objects"), 0, "no stored object");
    assert.equal(await storedPointRows(join(t.ws.dir, "data")), 0, "no point");

    await t.request("POST", "/v1/domains", { domain: "handbooks", display_name: "Handbooks" }, { authorization: k.admin });
    const extra = await uploadFile(t, k.uploader, "handbooks", "handbook.docx", handbookBytes(), { tenant_id: "ten_other" });
    assert.deepEqual([extra.status, extra.body.error.code], [422, "validation_error"]);

    const v1 = await uploadFile(t, k.uploader, "handbooks", "handbook.docx", handbookBytes());
    assert.equal(v1.status, 201);
    assert.ok(v1.body.chunks_indexed > 5);
    assert.deepEqual([v1.body.points_created, v1.body.points_soft_deleted, v1.body.version], [v1.body.chunks_indexed, 0, 1]);
    assert.match(v1.body.file_id, /^file_/);
    const job = await t.request("GET", `/v1/ingestion-jobs/${v1.body.ingestion_job_id}`, undefined, { authorization: k.uploader });
    assert.deepEqual([job.body.status, job.body.points_created, job.body.source_file_id], ["completed", v1.body.points_created, v1.body.file_id]);
    const found = await t.request(
      "POST",
      "/v1/search",
      { query: "Which number is the 24-hour fault line?", domain: "handbooks", top_k: 3 },
      { authorization: k.reader },
    );
    assert.equal(found.status, 200);
    assert.equal(found.body.items.length, 3);
    assert.ok(
      found.body.items.some((p: any) => p.text.includes("0800 555 0190")),
      "201 means searchable",
    );
    assert.ok(found.body.items.every((p: any) => p.version === 1 && p.domain === "handbooks"));

    const smaller = await buildDocx([{ h: "Handbook v2" }, { p: "The fault line number changed to 0800 555 0200 in 2025." }]);
    const v2 = await uploadFile(t, k.uploader, "handbooks", "handbook.docx", smaller);
    assert.deepEqual([v2.status, v2.body.version, v2.body.points_soft_deleted], [201, 2, v1.body.chunks_indexed]);
    const livePoints = await t.request("GET", "/v1/points?domain=handbooks", undefined, { authorization: k.reader });
    assert.equal(livePoints.body.total, v2.body.chunks_indexed);
    assert.ok(livePoints.body.items.every((p: any) => p.version === 2));
    const oldPoint = await t.request("GET", `/v1/points/${v1.body.file_id}_0`, undefined, { authorization: k.reader });
    assert.equal(oldPoint.status, 404, "soft-deleted points are not served");
    const newPoint = await t.request("GET", `/v1/points/${v2.body.file_id}_0`, undefined, { authorization: k.reader });
    assert.deepEqual([newPoint.status, newPoint.body.source_file_id], [200, v2.body.file_id]);
    const search2 = await t.request("POST", "/v1/search", { query: "fault line number" }, { authorization: k.reader });
    assert.ok(search2.body.items.every((p: any) => p.version === 2));
    const byFile = await t.request("GET", `/v1/points?file_id=${v2.body.file_id}&limit=1&offset=0`, undefined, { authorization: k.reader });
    assert.deepEqual([byFile.body.items.length, byFile.body.limit], [1, 1]);
  } finally {
    await t.close();
  }
});

test("tenants are isolated: another tenant can neither see nor change domains, files, jobs or points", async () => {
  const t = await startTestServer();
  try {
    const k = await keysFor(t);
    await t.request("POST", "/v1/domains", { domain: "handbooks", display_name: "Handbooks" }, { authorization: k.admin });
    const up = await uploadFile(t, k.admin, "handbooks", "handbook.docx", handbookBytes());
    const o = { authorization: k.other };
    assert.equal((await t.request("GET", "/v1/domains", undefined, o)).body.total, 0);
    assert.equal((await t.request("PATCH", "/v1/domains/handbooks", { display_name: "Mine" }, o)).status, 404);
    assert.equal((await t.request("POST", "/v1/domains/handbooks/disable", undefined, o)).status, 404);
    assert.equal((await t.request("GET", `/v1/ingestion-jobs/${up.body.ingestion_job_id}`, undefined, o)).status, 404);
    assert.equal((await t.request("GET", `/v1/points/${up.body.file_id}_0`, undefined, o)).status, 404);
    assert.equal((await t.request("GET", "/v1/points", undefined, o)).body.total, 0);
    assert.equal((await t.request("POST", "/v1/search", { query: "fault line" }, o)).body.items.length, 0);
    const intoTheirs = await uploadFile(t, k.other, "handbooks", "x.docx", handbookBytes());
    assert.deepEqual([intoTheirs.status, intoTheirs.body.error.code], [400, "unknown_domain"]);
    // The same domain name is free for the other tenant, and stays separate.
    assert.equal((await t.request("POST", "/v1/domains", { domain: "handbooks", display_name: "Globex" }, o)).status, 201);
    assert.equal((await t.request("GET", "/v1/domains", undefined, { authorization: k.admin })).body.items[0].display_name, "Handbooks");
  } finally {
    await t.close();
  }
});

test("limits: 413 over the chunk ceiling, 504 past the timeout; each writes a failed job row and leaves no point", async () => {
  for (const [env, status, code] of [
    [{ INGESTION_MAX_CHUNKS: "3" }, 413, "chunk_limit_exceeded"],
    [{ INGESTION_TIMEOUT_SECONDS: "0.001" }, 504, "ingestion_timeout"],
  ] as const) {
    const t = await startTestServer({}, env);
    try {
      const k = await keysFor(t);
      await t.request("POST", "/v1/domains", { domain: "d", display_name: "D" }, { authorization: k.admin });
      const r = await uploadFile(t, k.admin, "d", "handbook.docx", handbookBytes());
      assert.deepEqual([r.status, r.body.error.code], [status, code]);
      const jobs = await t.ws.internals.ingestionRepo.jobs();
      assert.deepEqual(
        jobs.map((j) => [j.status, j.errorCode]),
        [["failed", code]],
      );
      assert.equal(await settled(() => storedPointRows(join(t.ws.dir, "data"))), 0, "no point, hidden or live, in LanceDB");
      assert.equal(await settled(() => t.ws.internals.ingestionRepo.countSourceFiles()), 0);
    } finally {
      await t.close();
    }
  }
});

test("an upload whose client disconnects before its answer is cancelled: its job fails as cancelled and nothing of it stays", async () => {
  // A remote embedder that takes 300 ms per request of two texts: the ingestion is many requests long.
  const stub = await startOpenAiStub({ dimension: 8, delayMs: 300 });
  const t = await startTestServer(
    { embedder: "openai:slow", embed_batch_size: 2 },
    { INGESTION_TIMEOUT_SECONDS: "60", CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k", CHUNKEVAL_OPENAI_MAX_RETRIES: "0" },
  );
  try {
    const k = await keysFor(t);
    await t.request("POST", "/v1/domains", { domain: "d", display_name: "D" }, { authorization: k.admin });
    const form = new FormData();
    form.append("domain", "d");
    form.append("file", new Blob([handbookBytes()]), "handbook.docx");
    const controller = new AbortController();
    const upload = fetch(`${t.url}/v1/files`, { method: "POST", body: form, headers: { authorization: k.admin }, signal: controller.signal }).catch(
      (error: Error) => error,
    );
    // It embeds: the client goes away.
    for (let i = 0; i < 400 && stub.requests.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(stub.requests.length >= 2, "the ingestion had started embedding");
    controller.abort();
    assert.ok((await upload) instanceof Error);
    const jobs = async () => (await t.ws.internals.ingestionRepo.jobs()).map((j) => [j.status, j.errorCode, j.error]);
    for (let i = 0; i < 100 && (await jobs())[0]?.[0] === "running"; i++) await new Promise((r) => setTimeout(r, 50));
    const [[status, code, message]] = (await jobs()) as [[string, string, string]];
    assert.deepEqual([status, code], ["failed", "cancelled"]);
    assert.match(message, /client disconnected before the answer while [a-z ]+$/);
    if (process.env.CHUNKEVAL_TEST_METADATA_STORE !== "postgres") {
      // Run here, the work itself stops: no embedding request once the cancellation settled. (On
      // PostgreSQL the queue job runs on whichever replica took it: it embeds on until its commit,
      // which the failed row refuses, and then removes what it wrote.)
      await new Promise((r) => setTimeout(r, 1000));
      const calls = stub.requests.length;
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(stub.requests.length, calls, "no embedding request after the cancellation settled");
    }
    assert.equal(await settled(() => t.ws.internals.ingestionRepo.countSourceFiles()), 0);
    assert.equal(await settled(() => storedPointRows(join(t.ws.dir, "data"))), 0, "no point, hidden or live, in LanceDB");
    // The server's ingestion slot is free again: the next upload is taken.
    const next = await uploadFile(t, k.admin, "d", "notes.txt", Buffer.from("Lighthouse keepers log the weather at dawn."));
    assert.equal(next.status, 201, JSON.stringify(next.body));
  } finally {
    await t.close();
    await stub.close();
  }
});

test("limits: uploads beyond INGESTION_MAX_CONCURRENCY get 503 (no job row) while the admitted ones complete with all their points", async () => {
  const t = await startTestServer({}, { INGESTION_MAX_CONCURRENCY: "1" });
  try {
    const k = await keysFor(t);
    await t.request("POST", "/v1/domains", { domain: "d", display_name: "D" }, { authorization: k.admin });
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => uploadFile(t, k.admin, "d", `copy-${i}.docx`, handbookBytes())));
    const admitted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 503);
    assert.ok(admitted.length >= 1 && refused.length >= 1, results.map((r) => r.status).join(","));
    assert.equal(admitted.length + refused.length, 4);
    assert.ok(refused.every((r) => r.body.error.code === "concurrency_limit"));
    for (const r of admitted) {
      const points = await t.request("GET", `/v1/points?file_id=${r.body.file_id}&limit=500`, undefined, { authorization: k.admin });
      assert.equal(points.body.total, r.body.chunks_indexed);
    }
    // Refused before anything is stored: no failed job row is left behind.
    const rows = await t.ws.internals.ingestionRepo.jobs();
    assert.deepEqual(
      rows.map((j) => j.status),
      admitted.map(() => "completed"),
    );
  } finally {
    await t.close();
  }
});

test("502 index_failed when the vector store write raises: a failed job row and no point left behind", async () => {
  const t = await startTestServer();
  const stub = await startOpenAiStub({ dimension: 8 });
  const dataDir = join(t.ws.dir, "data");
  const k = await keysFor(t);
  await t.request("POST", "/v1/domains", { domain: "d", display_name: "D" }, { authorization: k.admin });
  const before = await uploadFile(t, k.admin, "d", "handbook.docx", handbookBytes());
  assert.equal(before.status, 201);
  await t.server.close();
  // Same data, but an embedder whose vectors do not fit the chunks collection: the write raises.
  const { app, internals } = await composeChunkeval(
    loadConfig({
      env: { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl },
      flags: {
        data_dir: dataDir,
        embedder: "openai:small-model",
        questions_dir: join(t.ws.dir, "questions"),
        metadata_store_uri: t.ws.app.config.metadataStoreUri,
      },
    }).config,
  );
  const server = await startServer(app, { host: "127.0.0.1", port: 0 });
  try {
    t.url = server.url;
    const failed = await uploadFile(t, k.admin, "d", "handbook.docx", handbookBytes());
    assert.deepEqual([failed.status, failed.body.error?.code], [502, "index_failed"], JSON.stringify(failed.body));
    const job = (await internals.ingestionRepo.jobs())[0]!;
    assert.deepEqual([job.status, job.errorCode], ["failed", "index_failed"]);
    const tenantId = (await internals.tenantsRepo.tenantByName("acme"))!.id;
    const live = await app.listPoints(tenantId, {}, { offset: 0, limit: 1000 });
    assert.equal(live.total, before.body.chunks_indexed, "only the earlier, successful version is there");
    assert.ok(live.items.every((p) => p.version === 1));
    assert.equal(await storedPointRows(dataDir), before.body.chunks_indexed, "the failed version left no point");
    assert.equal(await internals.ingestionRepo.countSourceFiles(), 1);
    assert.equal(await storedOriginals(app.config, "objects"), 1, "the failed upload's object was removed");
  } finally {
    await server.close();
    await stub.close();
    await t.ws.cleanup();
  }
});

test("healthz answers while the process lives; readyz is 503 with the reason when the chunks collection is gone", async () => {
  const t = await startTestServer();
  try {
    assert.deepEqual((await t.request("GET", "/healthz")).body, { status: "ok" });
    const ready = await t.request("GET", "/readyz");
    assert.deepEqual([ready.status, ready.body.status], [200, "ready"]);
    const lancedb = await import("@lancedb/lancedb");
    const db = await lancedb.connect(join(t.ws.dir, "data", "lancedb", "v1"));
    await db.dropTable("chunks");
    const gone = await t.request("GET", "/readyz");
    assert.deepEqual([gone.status, gone.body.status, gone.body.reason], [503, "not_ready", "the chunks collection does not exist"]);
  } finally {
    await t.close();
  }
});

test("serve starts without loading a model: with the /v1 embedder unreachable the evaluation API answers and /readyz says why it is not ready", async () => {
  // Port 9 on loopback refuses connections: the embedder cannot be reached.
  const t = await startTestServer(
    { embedder: "openai:unreachable" },
    { CHUNKEVAL_OPENAI_BASE_URL: "http://127.0.0.1:9/v1", CHUNKEVAL_OPENAI_MAX_RETRIES: "0" },
  );
  try {
    assert.equal((await t.request("GET", "/documents")).status, 200);
    assert.equal((await t.request("GET", "/healthz")).status, 200);
    const ready = await t.request("GET", "/readyz");
    assert.equal(ready.status, 503);
    assert.equal(ready.body.status, "not_ready");
    assert.ok(typeof ready.body.reason === "string" && ready.body.reason.length > 0);
  } finally {
    await t.close();
  }
});
