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
import type { QueuedIngestionInput } from "../../src/services/ingestion/ingestion.js";
import { handbookBytes } from "../helpers/documents.js";
import { testPostgres } from "../helpers/postgres.js";
import { storedPointRows } from "../helpers/stored-points.js";
import { createWorkspace, type Workspace } from "../helpers/workspace.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { storedOriginals } from "../helpers/originals.js";
import { nowTimestamp } from "../../src/domain/ids.js";

/**
 * A workspace on a fresh PostgreSQL database with tenant "acme" and its domain "manuals", a
 * client on the database, and a producer queue (it only enqueues, as `serve --no-jobs`); the
 * queues in `queues` (the producer, and those `body` adds) are shut down after `body`.
 */
async function withProducer(
  setup: { flags?: Record<string, string | number>; env?: NodeJS.ProcessEnv },
  body: (s: { ws: Workspace; db: pg.Client; uri: string; tenantId: string; producer: JobQueue; queues: JobQueue[] }) => Promise<void>,
): Promise<void> {
  const uri = await (await testPostgres()).createDatabase();
  const ws = await createWorkspace({ metadata_store_uri: uri, ...setup.flags }, setup.env);
  const db = new pg.Client({ connectionString: uri });
  const queues: JobQueue[] = [];
  try {
    await db.connect();
    const tenant = await ws.app.tenants.createTenant("acme");
    await ws.app.tenants.createDomain(tenant.id, "manuals", "Manuals");
    const producer = await ws.app.createJobQueue(jobHandlers(ws.app), { consume: false });
    queues.push(producer);
    await body({ ws, db, uri, tenantId: tenant.id, producer, queues });
  } finally {
    for (const queue of queues) await queue.shutdown();
    await db.end().catch(() => undefined);
    await ws.cleanup();
  }
}

/** Starts an upload through `producer`; returns its answer, and its queue job once queued. */
async function queueUpload(ws: Workspace, db: pg.Client, tenantId: string, producer: JobQueue, file = { name: "handbook.docx", bytes: handbookBytes() }) {
  const answer = ws.app.ingestFile(tenantId, "manuals", file.name, file.bytes, producer);
  answer.catch(() => undefined); // the caller awaits it, or checks that it fails
  let queued: { id: string; input_json: string } | undefined;
  for (let i = 0; i < 200 && !queued; i++) {
    queued = (await db.query<{ id: string; input_json: string }>(`SELECT id, input_json FROM jobs WHERE job_type = 'v1_ingestion'`)).rows[0];
    if (!queued) await new Promise((r) => setTimeout(r, 25));
  }
  assert.ok(queued, "the upload became a queue job");
  return { answer, queueJobId: queued.id, input: JSON.parse(queued.input_json) as QueuedIngestionInput };
}

/** A hidden point of the queued ingestion's version, as an attempt of it writes them. */
function attemptPoint(input: QueuedIngestionInput, tenantId: string, name: string, vector: Float32Array) {
  return {
    pointId: `${input.fileId}:${name}`,
    tenantId,
    domain: "manuals",
    sourceFileId: input.fileId,
    filename: "handbook.docx",
    version: input.version,
    chunkIndex: 0,
    text: `written by the ${name} attempt`,
    start: 0,
    end: 10,
    deleted: true,
    ingestionJobId: input.jobId,
    vector,
  };
}

test("a queued /v1 ingestion taken over from a killed process removes that attempt's hidden points, then commits exactly one version", () =>
  withProducer({}, async ({ ws, db, tenantId, producer, queues }) => {
    const { answer, queueJobId, input } = await queueUpload(ws, db, tenantId, producer);
    // What a worker killed after writing its points leaves: hidden points under the ingestion's id, the job claimed with its lease run out.
    const { points } = await ws.internals.v1();
    const [vector] = await (await ws.internals.context.embedder()).embed(["written by the killed attempt"]);
    await points.add([attemptPoint(input, tenantId, "killed", vector!)]);
    await db.query(`UPDATE jobs SET status = 'running', lease_owner = 'killed', lease_expires_at_ms = 0, attempts = 1 WHERE id = $1`, [queueJobId]);

    queues.push(await ws.app.createJobQueue(jobHandlers(ws.app), { consume: true, leaseMs: 1000 }));
    const result = await answer;
    assert.equal(result.version, 1);
    assert.equal(result.fileId, input.fileId);
    assert.equal(await storedPointRows(join(ws.dir, "data"), `point_id = '${input.fileId}:killed'`), 0, "the killed attempt's point is removed");
    assert.equal(await storedPointRows(join(ws.dir, "data")), result.chunksIndexed, "exactly the new version's points");
    assert.equal((await ws.app.listPoints(tenantId, {}, { offset: 0, limit: 500 })).total, result.chunksIndexed);
    // The row is completed before the upload is answered; the queue job is marked after its handler returns.
    const job = async () => (await db.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM jobs WHERE id = $1`, [queueJobId])).rows[0]!;
    for (let i = 0; i < 200 && (await job()).status === "running"; i++) await new Promise((r) => setTimeout(r, 25));
    assert.deepEqual(await job(), { status: "completed", attempts: 2 });
    assert.equal((await ws.app.ingestionJob(tenantId, result.ingestionJobId)).status, "completed");
  }));

/**
 * A stand-in embedder on 127.0.0.1 that holds the embedding request an attempt started by
 * `startHeld` makes next, until `release()`.
 */
async function embedderThatHolds(delayMs = 0) {
  let hold: Promise<void> | undefined;
  let release: () => void = () => undefined;
  let held: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (held = resolve));
  const stub = await startOpenAiStub({
    delayMs,
    before: async (path) => {
      if (path !== "/v1/embeddings" || !hold) return;
      const wait = hold;
      hold = undefined;
      held();
      await wait;
    },
  });
  return {
    stub,
    /**
     * Runs `attempt` with its next embedding request held; once it is held, gives the attempt's
     * outcome to come ("completed", or its error's message).
     */
    startHeld: async (attempt: () => Promise<unknown>) => {
      hold = new Promise<void>((resolve) => (release = resolve));
      const outcome = attempt().then(
        () => "completed",
        (error: Error) => error.message,
      );
      await reached;
      return { outcome };
    },
    release: () => release(),
    setup: { flags: { embedder: "openai:stub-embedding" }, env: { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" } },
  };
}

test("a stale attempt of a queued /v1 ingestion ending after another attempt committed it leaves the committed version's points and original", async () => {
  // The stale attempt is held at its first embedding request while the attempt that replaced it
  // commits; then it goes on, and its commit finds the job completed.
  const { stub, startHeld, release, setup } = await embedderThatHolds();
  try {
    await withProducer(setup, async ({ ws, db, uri, tenantId, producer }) => {
      const { points } = await ws.internals.v1(); // its dimension probe is not the request held
      const { answer, input } = await queueUpload(ws, db, tenantId, producer);
      const { outcome: stale } = await startHeld(() => ws.app.runQueuedIngestion(input, new AbortController().signal));
      // What the attempt that replaced it leaves once it has committed and published: its points live, the job completed.
      const repo = ws.internals.ingestionRepo;
      await points.add([attemptPoint(input, tenantId, "winner", new Float32Array(8).fill(1))]);
      assert.equal(await repo.commitSourceFile(input.fileId, input.jobId, 1), true);
      await points.setLiveVersion(tenantId, "manuals", "handbook.docx", input.version);
      await repo.markPublished(tenantId, "manuals", "handbook.docx", input.version);
      assert.equal(await repo.completeJob(input.jobId, { chunksIndexed: 1, pointsCreated: 1, pointsSoftDeleted: 0 }, nowTimestamp()), true);
      assert.equal((await answer).version, input.version, "the upload is answered with the committed version");

      release();
      await stale; // its commit lost: whatever it says, it must not remove the upload
      assert.equal(await storedPointRows(join(ws.dir, "data"), `point_id = '${input.fileId}:winner'`), 1, "the committed version's point stays");
      assert.equal((await ws.app.listPoints(tenantId, {}, { offset: 0, limit: 500 })).total, 1, "and stays live");
      assert.equal(await storedOriginals({ metadataStoreUri: uri, dataDir: join(ws.dir, "data") }, "objects"), 1, "the original stays");
      assert.deepEqual((await db.query(`SELECT committed FROM source_files WHERE id = $1`, [input.fileId])).rows, [{ committed: true }]);
      assert.equal((await ws.app.ingestionJob(tenantId, input.jobId)).status, "completed");
    });
  } finally {
    release();
    await stub.close();
  }
});

test("an attempt running when the accepting replica gave up on its job (deadline, client gone) stops and removes the hidden points it wrote", async () => {
  // Each embedding request takes 150 ms and the document needs many: an attempt that went on after
  // the job failed would make them all.
  const { stub, startHeld, release, setup } = await embedderThatHolds(150);
  try {
    await withProducer(setup, async ({ ws, db, uri, tenantId, producer }) => {
      await ws.internals.v1(); // its dimension probe is not the request held
      // Long enough to be embedded in many requests.
      const paragraphs = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} says the keeper logs the weather, the lamp and the tide at dawn and dusk.`);
      const { answer, input } = await queueUpload(ws, db, tenantId, producer, { name: "log.txt", bytes: Buffer.from(paragraphs.join("\n\n")) });
      const { outcome: attempt } = await startHeld(() => ws.app.runQueuedIngestion(input, new AbortController().signal));
      // What the accepting replica does when it gives up on a job it saw pending: the job fails
      // and the version goes, while this attempt (which claimed it meanwhile) is still embedding.
      const repo = ws.internals.ingestionRepo;
      const failure = { errorCode: "cancelled", error: "cancelled: the client disconnected before the answer while waiting for a process to run it" };
      assert.equal(await repo.failJobUnlessCommitted(input.jobId, failure, nowTimestamp()), true);
      assert.equal(await repo.deleteSourceFile(input.fileId), "deleted");
      await assert.rejects(answer, /client disconnected/);
      const embeddings = () => stub.requests.filter((r) => r.path === "/v1/embeddings").length;
      const atRelease = embeddings();
      release();
      assert.notEqual(await attempt, "completed");
      assert.ok(embeddings() - atRelease <= 3, `the attempt stopped once it saw the job failed (${embeddings() - atRelease} embedding requests after)`);
      // It wrote hidden points of its version after the version was removed; none may stay, or the
      // next upload of the name (given the same version number) would publish them.
      assert.equal(await storedPointRows(join(ws.dir, "data")), 0, "no point of the attempt, hidden or live");
      assert.equal(await storedOriginals({ metadataStoreUri: uri, dataDir: join(ws.dir, "data") }, "objects"), 0, "nor its original");
    });
  } finally {
    release();
    await stub.close();
  }
});

/**
 * An upload waiting in its replica for a queued ingestion that no process runs yet, when the
 * metadata store errors: the ingestion rows' table is renamed away (every read of it fails, as in
 * a brief outage) for `body`, which gets the upload's answer and job id, and `consume` to start a
 * consuming queue.
 */
function withUploadWaitingThroughOutage(
  flags: Record<string, number>,
  body: (upload: { answer: Promise<unknown>; settled: () => unknown; jobId: string; db: pg.Client; consume: () => Promise<void> }) => Promise<void>,
) {
  return withProducer({ flags }, async ({ ws, db, tenantId, producer, queues }) => {
    const { answer, input } = await queueUpload(ws, db, tenantId, producer);
    let outcome: unknown;
    answer.then(
      (result) => (outcome = result),
      (error: unknown) => (outcome = error),
    );
    await db.query(`ALTER TABLE ingestion_jobs RENAME TO ingestion_jobs_away`);
    try {
      const consume = async () => void queues.push(await ws.app.createJobQueue(jobHandlers(ws.app), { consume: true, leaseMs: 1000 }));
      await body({ answer, settled: () => outcome, jobId: input.jobId, db, consume });
    } finally {
      await db.query(`ALTER TABLE IF EXISTS ingestion_jobs_away RENAME TO ingestion_jobs`);
    }
  });
}

test("a replica waiting for a queued /v1 ingestion rides out a brief metadata store error: the upload still answers with its version", () =>
  withUploadWaitingThroughOutage({}, async ({ answer, settled, db, consume }) => {
    // Several polls (every 100 ms) fail meanwhile.
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(settled(), undefined, "the upload still waits");
    await db.query(`ALTER TABLE ingestion_jobs_away RENAME TO ingestion_jobs`);
    await consume();
    assert.equal(((await answer) as { version: number }).version, 1);
  }));

test("a replica whose metadata store still errors at a queued /v1 ingestion's deadline answers 502 index_failed naming the job", () =>
  withUploadWaitingThroughOutage({ ingestion_timeout_seconds: 1 }, async ({ answer, jobId }) => {
    const error = (await answer.then(
      () => assert.fail("the upload cannot succeed"),
      (e: unknown) => e,
    )) as { code?: string; status?: number; message: string };
    assert.deepEqual([error.code, error.status], ["index_failed", 502], error.message);
    assert.match(error.message, new RegExp(`ingestion job ${jobId}, which may still complete`));
  }));

test("a queued /v1 attempt whose claim another attempt took commits nothing and fails nothing: the commit is fenced by the claim", () =>
  withProducer({}, async ({ ws, db, tenantId, producer }) => {
    const { answer, queueJobId, input } = await queueUpload(ws, db, tenantId, producer);
    // Another process claimed the queue job after this attempt's lease expired (attempt 2, its own lease owner).
    await db.query(`UPDATE jobs SET status = 'running', lease_owner = 'the-replacing-attempt', lease_expires_at_ms = 9e15, attempts = 2 WHERE id = $1`, [
      queueJobId,
    ]);
    const stale = await ws.app.runQueuedIngestion(input, new AbortController().signal, { jobId: queueJobId, leaseOwner: "the-stale-attempt", attempt: 1 }).then(
      () => "committed",
      (error: Error) => error.message,
    );
    assert.match(stale, /lease on the queue job expired and another attempt runs it; nothing committed/);
    const version = (await db.query<{ committed: boolean }>(`SELECT committed FROM source_files WHERE id = $1`, [input.fileId])).rows[0];
    assert.deepEqual(version, { committed: false }, "the stale attempt did not commit the version");
    assert.equal((await ws.app.ingestionJob(tenantId, input.jobId)).status, "running", "nor failed the job the other attempt runs");
    // The attempt holding the claim commits.
    const holder = await ws.app.runQueuedIngestion(input, new AbortController().signal, {
      jobId: queueJobId,
      leaseOwner: "the-replacing-attempt",
      attempt: 2,
    });
    assert.equal(holder.version, input.version);
    assert.equal((await answer).version, input.version);
  }));
