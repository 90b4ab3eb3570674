import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { handbookBytes } from "../helpers/documents.js";
import { migratedTestDatabase } from "../helpers/postgres.js";

// /jobs asks for no credentials: the ingestion surface's jobs (whose parameters, results and
// errors name a tenant's files) must not be listed, filtered for or fetched there.

async function tenantKey(t: TestServer): Promise<string> {
  await t.ws.app.tenants.createTenant("acme");
  const auth = `Bearer ${(await t.ws.app.tenants.createApiKey("acme", ["files:write", "domains:write"])).secret}`;
  assert.equal((await t.request("POST", "/v1/domains", { domain: "secret-domain", display_name: "S" }, { authorization: auth })).status, 201);
  return auth;
}

async function assertInvisible(t: TestServer, jobId: string) {
  const all = await t.request("GET", "/jobs?limit=200");
  assert.equal(all.status, 200);
  assert.ok(!all.text.includes("v1_ingestion"), all.text);
  assert.ok(!all.text.includes(jobId), all.text);
  assert.ok(!all.text.includes("secret-domain") && !all.text.includes("payroll-2026"), all.text);
  assert.equal(all.body.total, all.body.items.length, "the total counts only what may be listed");
  const filtered = await t.request("GET", "/jobs?job_type=v1_ingestion");
  assert.equal(filtered.status, 422, filtered.text);
  assert.ok(!filtered.text.includes(jobId));
  const one = await t.request("GET", `/jobs/${jobId}`);
  assert.equal(one.status, 404, one.text);
  assert.ok(!one.text.includes("secret-domain"));
}

test("a v1_ingestion job row (SQLite; PostgreSQL in the PostgreSQL pass) is not listed, filtered for or fetched through /jobs", async () => {
  const t = await startTestServer();
  try {
    const jobId = "job_tenantsecret";
    const owner = { instance: "another-server", host: "h", pid: 1 };
    const params = { ingestion_job_id: "ing_1", domain: "secret-domain", filename: "payroll-2026.docx" };
    await t.ws.internals.context.jobs.insert({ jobId, jobType: "v1_ingestion", params, createdAt: new Date().toISOString() }, owner);
    await t.ws.internals.context.jobs.insert({ jobId: "job_visible", jobType: "process", params: {}, createdAt: new Date().toISOString() }, owner);
    await assertInvisible(t, jobId);
    const listed = await t.request("GET", "/jobs");
    assert.deepEqual(
      listed.body.items.map((j: any) => j.job_id),
      ["job_visible"],
    );
    assert.equal(listed.body.total, 1);
  } finally {
    await t.close();
  }
});

test("PostgreSQL: a /v1 upload's queue job is not listed, filtered for or fetched through /jobs; the tenant still polls its ingestion", async () => {
  const t = await startTestServer({ metadata_store_uri: await migratedTestDatabase() });
  try {
    const auth = await tenantKey(t);
    const form = new FormData();
    form.append("domain", "secret-domain");
    form.append("file", new Blob([handbookBytes()]), "payroll-2026.docx");
    const up = await fetch(`${t.url}/v1/files`, { method: "POST", body: form, headers: { authorization: auth } });
    const uploaded = (await up.json()) as any;
    assert.equal(up.status, 201, JSON.stringify(uploaded));
    const queued = await t.ws.internals.context.jobs.list({ jobType: "v1_ingestion" }, 0, 10);
    assert.equal(queued.total, 1, "the upload ran as a queue job");
    await assertInvisible(t, queued.items[0]!.jobId);
    const own = await t.request("GET", `/v1/ingestion-jobs/${uploaded.ingestion_job_id}`, undefined, { authorization: auth });
    assert.equal(own.status, 200, own.text);
  } finally {
    await t.close();
  }
});
