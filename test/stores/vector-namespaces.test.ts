import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { vectorBackendFor, vectorStoreSchemes } from "../../src/stores/vectors/registry.js";

/** Uploads the handbook into /v1 for a fresh tenant and returns what a search needs. */
async function ingestIntoV1(ws: Awaited<ReturnType<typeof createWorkspace>>) {
  const tenant = await ws.app.tenants.createTenant("acme");
  await ws.app.tenants.createDomain(tenant.id, "handbooks", "Handbooks");
  const ingested = await ws.app.ingestFile(tenant.id, "handbooks", "handbook.docx", handbookBytes());
  assert.ok(ingested.chunksIndexed > 0);
  return { tenantId: tenant.id, points: ingested.chunksIndexed };
}

test("each surface keeps its vectors in its own namespace: no evaluation cleanup reaches /v1 points, whatever their tables are named", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    const { tenantId, points } = await ingestIntoV1(ws);
    const root = join(ws.dir, "data", "lancedb");
    assert.deepEqual(readdirSync(root).sort(), ["evaluation", "owner.lance", "v1"]);
    assert.deepEqual(readdirSync(join(root, "evaluation")), ["chunks_hash_512.lance"]);
    assert.deepEqual(readdirSync(join(root, "v1")).sort(), ["chunks.lance", `points_${tenantId}.lance`]);

    // A /v1 table named like an evaluation table, with rows that look like an uncommitted
    // generation: under the old shared folder, cleanup would have deleted them.
    const lancedb = await import("@lancedb/lancedb");
    const v1 = await lancedb.connect(join(root, "v1"));
    await v1.createTable("chunks_hash_512", [
      { chunk_id: "c1", document_id: doc.id, strategy: "recursive", generation: "gen_nobody", text: "x", vector: Array(512).fill(0.1) },
    ]);

    await ws.reopen(); // opening the evaluation store sweeps abandoned generations
    const report = await ws.app.doctor({ repair: true });
    assert.equal(report.consistent, true, JSON.stringify(report.findings));
    assert.equal(report.checked.vectors > 0, true);
    assert.equal(await (await v1.openTable("chunks_hash_512")).countRows(), 1, "the /v1 namespace's table was not touched");
    const hits = await ws.app.searchPoints(tenantId, { text: "member share price", topK: 3 });
    assert.equal(hits.length, 3);
    assert.equal((await ws.app.listPoints(tenantId, {}, { offset: 0, limit: 500 })).total, points);
    v1.close();
  } finally {
    await ws.cleanup();
  }
});

test("a data directory from before the namespaces is moved into them on first open and keeps answering", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    const { tenantId, points } = await ingestIntoV1(ws);
    await ws.app.close();
    // The old layout: every table in one folder, told apart by name.
    const root = join(ws.dir, "data", "lancedb");
    renameSync(join(root, "evaluation", "chunks_hash_512.lance"), join(root, "chunks_hash_512.lance"));
    renameSync(join(root, "v1", "chunks.lance"), join(root, "chunks.lance"));

    await ws.reopen();
    const answer = await ws.app.ask({ documentId: doc.id, strategy: "recursive", question: "How much does a member share cost?" });
    assert.equal(answer.retrievedChunks.length, 5, "the evaluation vectors were found in their new place");
    assert.equal((await ws.app.listPoints(tenantId, {}, { offset: 0, limit: 500 })).total, points, "and the /v1 points");
    assert.equal(existsSync(join(root, "chunks_hash_512.lance")), false);
    assert.equal(existsSync(join(root, "chunks.lance")), false);
    assert.equal((await ws.app.doctor()).consistent, true);
  } finally {
    await ws.cleanup();
  }
});

test("a /v1 collection from before tenant tables: its points move to their tenants' own tables at first use, once, and stay searchable", async () => {
  const ws = await createWorkspace();
  try {
    const acme = await ingestIntoV1(ws);
    const globex = await ws.app.tenants.createTenant("globex");
    await ws.app.tenants.createDomain(globex.id, "handbooks", "Handbooks");
    await ws.app.ingestFile(globex.id, "handbooks", "handbook.docx", handbookBytes());
    await ws.app.close();
    // The old layout: every tenant's points in the `chunks` table. acme's table is gone, as
    // before the change; globex's is kept too, as a move killed before its delete leaves it.
    const lancedb = await import("@lancedb/lancedb");
    const db = await lancedb.connect(join(ws.dir, "data", "lancedb", "v1"));
    const shared = await db.openTable("chunks");
    for (const tenantId of [acme.tenantId, globex.id]) {
      const own = await db.openTable(`points_${tenantId}`);
      await shared.add(await own.query().toArrow());
      own.close();
    }
    await db.dropTable(`points_${acme.tenantId}`);
    assert.equal(await shared.countRows(), 2 * acme.points);

    await ws.reopen();
    for (const tenantId of [acme.tenantId, globex.id]) {
      const page = await ws.app.listPoints(tenantId, {}, { offset: 0, limit: 500 });
      assert.equal(page.items.length, acme.points, "every point is read back from the tenant's table, none twice");
      const hits = await ws.app.searchPoints(tenantId, { text: "member share price", topK: 3 });
      assert.equal(hits.length, 3);
      assert.ok(hits.every((h) => h.tenantId === tenantId));
    }
    await shared.checkoutLatest(); // this handle does not look for other processes' versions by itself
    assert.equal(await shared.countRows(), 0, "the shared table keeps no point");
    for (const tenantId of [acme.tenantId, globex.id]) assert.equal(await (await db.openTable(`points_${tenantId}`)).countRows(), acme.points);
    shared.close();
    db.close();
  } finally {
    await ws.cleanup();
  }
});

test("the vector backend comes from a registry by URI scheme; the configuration accepts exactly the schemes some backend serves", async () => {
  assert.deepEqual(vectorStoreSchemes().sort(), ["az", "gs", "s3"]);
  assert.equal(vectorBackendFor("/var/lib/chunkeval/lancedb").name, "lancedb");
  assert.equal(vectorBackendFor("s3://bucket/path").name, "lancedb");
  assert.throws(() => vectorBackendFor("ftp://host/path"), /no vector store serves ftp:\/\/ URIs/);
  const { loadConfig } = await import("../../src/config/load.js");
  const { errors } = loadConfig({ cwd: "/tmp", env: {}, flags: { vector_store_uri: "ftp://host/path" } });
  assert.deepEqual(errors, ['vector_store_uri: "ftp://host/path" is not a local path or an s3://bucket/path, gs://bucket/path, az://bucket/path URI']);
});
