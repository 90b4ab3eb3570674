import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { INGESTION_INTERRUPTED } from "../../src/services/ingestion/ingestion-recovery.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { handbookBytes } from "../helpers/documents.js";
import { liveStoredPoints } from "../helpers/stored-points.js";
import { storedOriginals } from "../helpers/originals.js";

async function adminKey(t: TestServer): Promise<string> {
  await t.ws.app.tenants.createTenant("acme");
  const auth = `Bearer ${(await t.ws.app.tenants.createApiKey("acme", ["files:write", "domains:read", "domains:write"])).secret}`;
  assert.equal((await t.request("POST", "/v1/domains", { domain: "d", display_name: "D" }, { authorization: auth })).status, 201);
  return auth;
}

async function uploadFile(t: TestServer, auth: string, filename: string, bytes: Buffer) {
  const form = new FormData();
  form.append("domain", "d");
  form.append("file", new Blob([bytes]), filename);
  const r = await fetch(`${t.url}/v1/files`, { method: "POST", body: form, headers: { authorization: auth } });
  return { status: r.status, body: (await r.json()) as any };
}

test("/v1 with INGESTION_STRATEGY=contextual_retrieval indexes the contexts: a word only in a context finds its chunk", async () => {
  const CONTEXT_WORD = "quokkaland";
  const stub = await startOpenAiStub({ reply: () => `This passage belongs to the ${CONTEXT_WORD} harbour handbook.` });
  const t = await startTestServer(
    { generator: "openai:chat" },
    { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k", INGESTION_STRATEGY: "contextual_retrieval" },
  );
  try {
    const auth = await adminKey(t);
    assert.ok(!handbookBytes().toString("latin1").toLowerCase().includes(CONTEXT_WORD));
    const up = await uploadFile(t, auth, "handbook.docx", handbookBytes());
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const found = await t.request("POST", "/v1/search", { query: CONTEXT_WORD, top_k: 3 }, { authorization: auth });
    assert.equal(found.status, 200);
    assert.ok(found.body.items.length > 0);
    assert.ok(found.body.items.every((p: any) => p.source_file_id === up.body.file_id && p.text.includes(CONTEXT_WORD)));
  } finally {
    await t.close();
    await stub.close();
  }
});

test("a /v1 upload whose contextual_retrieval strategy would pass http_max_llm_calls is stopped at it: 413, no version left live", async () => {
  const stub = await startOpenAiStub({ reply: () => "Context of the chunk." });
  const chatCalls = () => stub.requests.filter((r) => r.path === "/v1/chat/completions").length;
  const t = await startTestServer(
    { generator: "openai:chat", http_max_llm_calls: 5 },
    { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k", INGESTION_STRATEGY: "contextual_retrieval" },
  );
  try {
    const auth = await adminKey(t);
    // The handbook has dozens of chunks, each asking the model for its context.
    const up = await uploadFile(t, auth, "handbook.docx", handbookBytes());
    assert.equal(up.status, 413, JSON.stringify(up.body));
    assert.equal(up.body.error.code, "llm_call_limit_exceeded", JSON.stringify(up.body));
    assert.equal(chatCalls(), 5, "exactly the budget was spent, no call past it");
    assert.deepEqual(await liveStoredPoints(join(t.ws.dir, "data")), []);
    assert.equal((await t.request("GET", "/healthz")).status, 200);
  } finally {
    await t.close();
    await stub.close();
  }
});

test("/v1 versions are allocated atomically: N concurrent uploads of one name get 1..N and one version's points stay live", async () => {
  const N = 5;
  const t = await startTestServer({}, { INGESTION_MAX_CONCURRENCY: String(N) });
  try {
    const auth = await adminKey(t);
    const results = await Promise.all(Array.from({ length: N }, () => uploadFile(t, auth, "same.docx", handbookBytes())));
    assert.deepEqual(
      results.map((r) => r.status),
      Array(N).fill(201),
      JSON.stringify(results.map((r) => r.body)),
    );
    assert.deepEqual(
      results.map((r) => r.body.version).sort((a, b) => a - b),
      Array.from({ length: N }, (_, i) => i + 1),
    );
    const chunks = results[0]!.body.chunks_indexed;
    // In LanceDB itself (what search finds), and as GET /v1/points lists it.
    const stored = await liveStoredPoints(join(t.ws.dir, "data"));
    assert.equal(stored.length, chunks, "the live point count is one version's chunk count");
    assert.deepEqual([...new Set(stored.map((p) => p.version))], [N], "the newest version is the live one");
    const listed = await t.request("GET", "/v1/points?limit=500", undefined, { authorization: auth });
    assert.deepEqual([listed.body.total, [...new Set(listed.body.items.map((p: any) => p.version))]], [chunks, [N]]);
  } finally {
    await t.close();
  }
});

test("a /v1 ingestion a killed server left running is marked failed at the next start, and what it wrote is removed", async () => {
  const t = await startTestServer();
  try {
    const auth = await adminKey(t);
    assert.equal((await uploadFile(t, auth, "kept.docx", handbookBytes())).status, 201);
    const tenantId = (await t.ws.internals.tenantsRepo.tenantByName("acme"))!.id;
    // What a server killed mid-ingestion leaves: a running job, an uncommitted version and its object.
    const dead = { instance: "ins_dead", pid: spawnSync(process.execPath, ["-e", ""]).pid!, host: hostname() };
    const repo = t.ws.internals.ingestionRepo;
    await repo.insertJob({ id: "ing_killed", tenantId, domain: "d", filename: "lost.docx", createdAt: "2026-01-01T00:00:00" }, dead);
    const objectPath = join(t.ws.dir, "data", "objects", "file_killed.docx");
    await repo.allocateSourceFile(
      { id: "file_killed", tenantId, domain: "d", filename: "lost.docx", contentHash: "x", objectPath, createdAt: "2026-01-01T00:00:00" },
      "ing_killed",
    );
    await t.restart();
    const job = (await t.ws.internals.ingestionRepo.job(tenantId, "ing_killed"))!;
    assert.deepEqual([job.status, job.error], ["failed", INGESTION_INTERRUPTED]);
    assert.equal(await t.ws.internals.ingestionRepo.countSourceFiles(), 1, "the uncommitted version's row is gone");
    assert.equal(existsSync(objectPath), false);
    assert.equal(await storedOriginals(t.ws.app.config, "objects"), 1);
  } finally {
    await t.close();
  }
});

test("SQLite: a /v1 ingestion of a killed server with this very host and PID (a container's restart) is ended once its deadline passed", async () => {
  const t = await startTestServer({ ingestion_timeout_seconds: 1 });
  try {
    // The tenant and its domain only: an upload within a 1 s window could time out on a loaded machine.
    await adminKey(t);
    const tenantId = (await t.ws.internals.tenantsRepo.tenantByName("acme"))!.id;
    // The killed predecessor: another instance, but the same host and PID as this server (PID 1 in both containers).
    const predecessor = { instance: "ins_killed_in_container", pid: process.pid, host: hostname() };
    const repo = t.ws.internals.ingestionRepo;
    const createdAt = new Date().toISOString().replace("Z", "");
    await repo.insertJob({ id: "ing_same_pid", tenantId, domain: "d", filename: "lost.docx", createdAt }, predecessor);
    const objectPath = join(t.ws.dir, "data", "objects", "file_same_pid.docx");
    await repo.allocateSourceFile(
      { id: "file_same_pid", tenantId, domain: "d", filename: "lost.docx", contentHash: "x", objectPath, createdAt },
      "ing_same_pid",
    );
    const status = async () => (await repo.job(tenantId, "ing_same_pid"))!.status;
    assert.equal(await status(), "running", "within its deadline it may still be running");
    // The deadline (1 s) and its margin (5 s) pass; the server's sweep (every second here) ends it.
    const until = Date.now() + 20_000;
    while ((await status()) === "running" && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
    const job = (await repo.job(tenantId, "ing_same_pid"))!;
    assert.deepEqual([job.status, job.error], ["failed", INGESTION_INTERRUPTED]);
    assert.equal(await repo.countSourceFiles(), 0, "the uncommitted version's row is gone");
  } finally {
    await t.close();
  }
});
