/**
 * /v1 ingestion as a job of the shared queue (PostgreSQL), in one process with the queue's two
 * sides apart: a producer that only enqueues (as `serve --no-jobs`) and a consumer that runs jobs
 * (as `chunkeval worker`). A killed attempt is set up as it is left in the stores, so what the
 * taking-over attempt must clean is there for certain (test/e2e/worker-queue.test.ts kills real
 * processes).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import pg from "pg";
import type { JobQueue } from "../../src/domain/ports/job-queue.js";
import { jobHandlers } from "../../src/transports/job-handlers.js";
import type { QueuedIngestionInput } from "../../src/services/ingestion.js";
import { handbookBytes } from "../helpers/documents.js";
import { sharedPostgres } from "../helpers/metadata-stores.js";
import { storedPointRows } from "../helpers/stored-points.js";
import { createWorkspace } from "../helpers/workspace.js";

test("a queued /v1 ingestion taken over from a killed process removes that attempt's hidden points, then commits exactly one version", async () => {
  const uri = await (await sharedPostgres()).createDatabase();
  const ws = await createWorkspace({ metadata_store_uri: uri });
  const db = new pg.Client({ connectionString: uri });
  const queues: JobQueue[] = [];
  try {
    await db.connect();
    const tenant = await ws.app.tenants.createTenant("acme");
    await ws.app.tenants.createDomain(tenant.id, "manuals", "Manuals");
    const producer = await ws.app.createJobQueue(jobHandlers(ws.app), { consume: false });
    queues.push(producer);
    const answer = ws.app.ingestFile(tenant.id, "manuals", "handbook.docx", handbookBytes(), producer);

    let queued: { id: string; input_json: string } | undefined;
    for (let i = 0; i < 200 && !queued; i++) {
      queued = (await db.query<{ id: string; input_json: string }>(`SELECT id, input_json FROM jobs WHERE job_type = 'v1_ingestion'`)).rows[0];
      if (!queued) await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok(queued, "the upload became a queue job");
    const input = JSON.parse(queued.input_json) as QueuedIngestionInput;
    // What a worker killed after writing its points leaves: hidden points under the ingestion's id, the job claimed with its lease run out.
    const { points } = await ws.internals.v1();
    const [vector] = await (await ws.internals.context.embedder()).embed(["written by the killed attempt"]);
    await points.add([
      {
        pointId: `${input.fileId}:killed`,
        tenantId: tenant.id,
        domain: "manuals",
        sourceFileId: input.fileId,
        filename: "handbook.docx",
        version: input.version,
        chunkIndex: 0,
        text: "written by the killed attempt",
        start: 0,
        end: 10,
        deleted: true,
        ingestionJobId: input.jobId,
        vector: vector!,
      },
    ]);
    await db.query(`UPDATE jobs SET status = 'running', lease_owner = 'killed', lease_expires_at_ms = 0, attempts = 1 WHERE id = $1`, [queued.id]);

    queues.push(await ws.app.createJobQueue(jobHandlers(ws.app), { consume: true, leaseMs: 1000 }));
    const result = await answer;
    assert.equal(result.version, 1);
    assert.equal(result.fileId, input.fileId);
    assert.equal(await storedPointRows(join(ws.dir, "data"), `point_id = '${input.fileId}:killed'`), 0, "the killed attempt's point is removed");
    assert.equal(await storedPointRows(join(ws.dir, "data")), result.chunksIndexed, "exactly the new version's points");
    assert.equal((await ws.app.listPoints(tenant.id, {}, { offset: 0, limit: 500 })).total, result.chunksIndexed);
    // The row is completed before the upload is answered; the queue job is marked after its handler returns.
    const job = async () => (await db.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM jobs WHERE id = $1`, [queued.id])).rows[0]!;
    for (let i = 0; i < 200 && (await job()).status === "running"; i++) await new Promise((r) => setTimeout(r, 25));
    assert.deepEqual(await job(), { status: "completed", attempts: 2 });
    assert.equal((await ws.app.ingestionJob(tenant.id, result.ingestionJobId)).status, "completed");
  } finally {
    for (const queue of queues) await queue.shutdown();
    await db.end().catch(() => undefined);
    await ws.cleanup();
  }
});
