import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildDocx, handbookBytes } from "../helpers/documents.js";
import { createWorkspace } from "../helpers/workspace.js";

test("/v1: a version committed before the deadline is a success, even when publishing it outlasts the window", async () => {
  const ws = await createWorkspace({ ingestion_timeout_seconds: 2 });
  try {
    const tenant = ws.app.tenants.createTenant("acme");
    ws.app.tenants.createDomain(tenant.id, "manuals", "Manuals");
    const bytes = await buildDocx([{ h: "Pumps" }, { p: "The pump station runs on two diesel engines." }, { p: "Each engine is serviced every spring." }]);
    // Publishing (showing the new version, hiding older ones) is slowed past the window.
    const { points } = await ws.internals.v1();
    const publish = points.setLiveVersion.bind(points);
    points.setLiveVersion = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      return publish(...args);
    };
    const result = await ws.app.ingestFile(tenant.id, "manuals", "pumps.docx", bytes);
    assert.equal(result.version, 1);
    assert.ok(result.chunksIndexed > 0);
    const job = ws.app.ingestionJob(tenant.id, result.ingestionJobId);
    assert.equal(job.status, "completed", "the job is not failed behind the client's back");
    assert.equal((await ws.app.listPoints(tenant.id, {}, { offset: 0, limit: 50 })).total, result.chunksIndexed);
  } finally {
    await ws.cleanup();
  }
});

test("/v1: points a failed ingestion could not remove (the vector store failed again) are removed at the next server start", async () => {
  const ws = await createWorkspace();
  try {
    const tenant = ws.app.tenants.createTenant("acme");
    ws.app.tenants.createDomain(tenant.id, "manuals", "Manuals");
    const { points } = await ws.internals.v1();
    const [add, remove] = [points.add.bind(points), points.deleteByJob.bind(points)];
    // The write lands, then reports failure; removing what it wrote fails too.
    points.add = async (written) => {
      await add(written);
      throw new Error("disk full");
    };
    points.deleteByJob = async () => {
      throw new Error("still failing");
    };
    await assert.rejects(
      ws.app.ingestFile(tenant.id, "manuals", "handbook.docx", handbookBytes()),
      /indexing failed while writing vectors to the vector store/,
    );
    [points.add, points.deleteByJob] = [add, remove];
    const lancedb = await import("@lancedb/lancedb");
    const db = await lancedb.connect(join(ws.dir, "data", "lancedb", "v1"));
    const rows = () => db.openTable("chunks").then((t) => t.countRows());
    assert.ok((await rows()) > 0, "hidden points were left behind");
    assert.equal(ws.internals.ingestionRepo.jobsWithPointsLeft().length, 1);

    await ws.app.recoverIngestions(); // what a server does when it starts
    assert.equal(await rows(), 0);
    assert.deepEqual(ws.internals.ingestionRepo.jobsWithPointsLeft(), []);
    assert.equal(ws.internals.ingestionRepo.countSourceFiles(), 0);
    db.close();
  } finally {
    await ws.cleanup();
  }
});

test("/v1: a version committed whose publication failed is published at the next server start", async () => {
  const ws = await createWorkspace();
  try {
    const tenant = ws.app.tenants.createTenant("acme");
    ws.app.tenants.createDomain(tenant.id, "manuals", "Manuals");
    const { points } = await ws.internals.v1();
    const publish = points.setLiveVersion.bind(points);
    points.setLiveVersion = async () => {
      throw new Error("object store unavailable");
    };
    await assert.rejects(ws.app.ingestFile(tenant.id, "manuals", "handbook.docx", handbookBytes()), (error: Error & { code?: string }) => {
      assert.equal(error.code, "index_failed");
      assert.match(error.message, /committed but publishing it failed; it becomes searchable when the server next starts/);
      return true;
    });
    const listed = () => ws.app.listPoints(tenant.id, {}, { offset: 0, limit: 1 }).then((p) => p.total);
    assert.equal(await listed(), 0, "the unpublished version is not searchable yet");
    assert.equal(ws.internals.ingestionRepo.jobsWithPublishPending().length, 1);

    points.setLiveVersion = publish;
    await ws.app.recoverIngestions(); // what a server does when it starts
    assert.ok((await listed()) > 0, "the committed version is published");
    assert.deepEqual(ws.internals.ingestionRepo.jobsWithPublishPending(), []);
    const hits = await ws.app.searchPoints(tenant.id, { text: "member share price", topK: 3 });
    assert.ok(hits.length > 0);
  } finally {
    await ws.cleanup();
  }
});
