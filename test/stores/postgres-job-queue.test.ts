/**
 * The PostgreSQL job queue when a lease lapses while its holder is still alive (it stalled past
 * it): jobs of test-defined types run by the real queue on a real PostgreSQL server. What a stall
 * or another process's claim leaves is written into the `jobs` rows, so that each case happens
 * for certain (test/e2e/benchmark-units.test.ts stalls a real worker with SIGSTOP).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import type { JobHandlers, JobQueue } from "../../src/domain/ports/job-queue.js";
import { spendChatCall, withCallBudget } from "../../src/generators/call-budget.js";
import { testPostgres } from "../helpers/postgres.js";
import { waitFor } from "../helpers/long-running.js";
import { createWorkspace, type Workspace } from "../helpers/workspace.js";

interface Row {
  id: string;
  status: string;
  attempts: number;
  error: string | null;
  lease_owner: string | null;
}

/** A workspace on a fresh database, a client on it, and a consuming queue with `handlers`; `body` runs, then all is closed. */
async function withQueue(
  handlers: JobHandlers,
  options: { concurrency: number; leaseMs: number },
  body: (queue: JobQueue, row: (id: string) => Promise<Row>, db: pg.Client) => Promise<void>,
): Promise<void> {
  const uri = await (await testPostgres()).createDatabase();
  let ws: Workspace | undefined;
  let queue: JobQueue | undefined;
  const db = new pg.Client({ connectionString: uri });
  try {
    ws = await createWorkspace({ metadata_store_uri: uri });
    await db.connect();
    queue = await ws.app.createJobQueue(handlers, { consume: true, ...options });
    const row = async (id: string) => (await db.query<Row>(`SELECT id, status, attempts, error, lease_owner FROM jobs WHERE id = $1`, [id])).rows[0]!;
    await body(queue, row, db);
  } finally {
    await queue?.shutdown();
    await db.end().catch(() => undefined);
    await ws?.cleanup();
  }
}

test("a job whose lease lapsed while its process still runs it is not claimed again by that process", async () => {
  let runs = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const handlers: JobHandlers = {
    slow: async (_input, { signal }) => {
      runs++;
      // Stopped by the queue's shutdown too, should an assertion end the test before `finish`.
      await Promise.race([finished, new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }))]);
      return { runs };
    },
    quick: async () => "done",
  };
  // A long lease: no renewal or sweep comes within the test, only the wake-up of an enqueue.
  await withQueue(handlers, { concurrency: 2, leaseMs: 60_000 }, async (queue, row, db) => {
    const slow = await queue.enqueue({ jobType: "slow", params: {}, input: null });
    await waitFor(
      "the slow job to run",
      async () => runs,
      (n) => n === 1,
    );
    // What a stall past the lease leaves: the row still this process's, its lease expired.
    await db.query(`UPDATE jobs SET lease_expires_at_ms = 0 WHERE id = $1`, [slow.jobId]);
    const quick = await queue.enqueue({ jobType: "quick", params: {}, input: null });
    assert.equal(
      (
        await waitFor(
          "the quick job to end",
          () => row(quick.jobId),
          (r) => r.status !== "pending" && r.status !== "running",
        )
      ).status,
      "completed",
    );
    assert.equal(runs, 1, "the slow job runs once in its process");
    finish();
    const ended = await waitFor(
      "the slow job to end",
      () => row(slow.jobId),
      (r) => r.status !== "running",
    );
    assert.deepEqual([ended.status, ended.attempts], ["completed", 1]);
  });
});

/**
 * A parent job that runs three child jobs (two at once here) that run until stopped; `act` is
 * given the parent's id once both children run here, and, once the parent's attempt here has
 * stopped, what stopped each child's run here (its signal's reason).
 */
async function withParentRunningChildren(
  act: (parentId: string, row: (id: string) => Promise<Row>, db: pg.Client, parentStopped: Promise<string[]>) => Promise<void>,
) {
  let parentEnded: () => void = () => undefined;
  const parentOutcome = new Promise<void>((resolve) => (parentEnded = resolve));
  const childStops: string[] = [];
  const handlers: JobHandlers = {
    parent: (_input, { signal, children }) =>
      children!
        .run(
          [0, 1, 2].map((n) => ({ jobType: "child", params: { n }, input: null })),
          { signal, concurrency: 2 },
        )
        .finally(() => parentEnded()),
    child: (_input, { signal }) =>
      new Promise((_, reject) =>
        signal.addEventListener(
          "abort",
          () => {
            childStops.push(String((signal.reason as Error).message));
            reject(signal.reason);
          },
          { once: true },
        ),
      ),
  };
  // One slot (the parent's): the children run inline only, and the renewal comes every 300 ms.
  await withQueue(handlers, { concurrency: 1, leaseMs: 900 }, async (queue, row, db) => {
    const parent = await queue.enqueue({ jobType: "parent", params: {}, input: null });
    const children = () =>
      db.query<Row>(`SELECT id, status, attempts, error, lease_owner FROM jobs WHERE params_json::jsonb ->> 'parent_job_id' = $1 ORDER BY seq`, [parent.jobId]);
    await waitFor(
      "two children running in the parent's process",
      async () => (await children()).rows,
      (rows) => rows.length === 3 && rows.filter((r) => r.status === "running").length === 2,
    );
    await act(
      parent.jobId,
      row,
      db,
      parentOutcome.then(() => childStops),
    );
  });
}

test("a parent job claimed by another process while its first process is alive: that process fails no child and gives back those it ran", () =>
  withParentRunningChildren(async (parentId, row, db, parentStopped) => {
    // What another process's claim of the parent, after this one's lease lapsed, leaves in its row.
    await db.query(`UPDATE jobs SET lease_owner = 'other-host:1:other', attempts = attempts + 1, lease_expires_at_ms = $2 WHERE id = $1`, [
      parentId,
      Date.now() + 600_000,
    ]);
    const stops = await parentStopped;
    assert.deepEqual(
      stops.slice(0, 2),
      Array(2).fill(`given back: another claim of its parent job ${parentId} runs it`),
      "the children run here were given back",
    );
    const rows = (await db.query<Row>(`SELECT status, attempts, error FROM jobs WHERE params_json::jsonb ->> 'parent_job_id' = $1`, [parentId])).rows;
    // Left to the other claim: pending, or claimed again by this process once free (as any process may), the claims given back uncounted.
    for (const r of rows) assert.ok((r.status === "pending" && r.attempts === 0) || (r.status === "running" && r.attempts === 1), JSON.stringify(r));
    const parent = await row(parentId);
    assert.deepEqual([parent.status, parent.lease_owner, parent.attempts], ["running", "other-host:1:other", 2], "the other claim's row is untouched");
  }));

test("a parent job stopped while its children run (its row failed) still cancels them", () =>
  withParentRunningChildren(async (parentId, row, db, parentStopped) => {
    await db.query(`UPDATE jobs SET status = 'failed', error = 'stopped by the test', lease_owner = NULL WHERE id = $1`, [parentId]);
    const rows = await waitFor(
      "every child to end",
      async () => (await db.query<Row>(`SELECT status, error FROM jobs WHERE params_json::jsonb ->> 'parent_job_id' = $1`, [parentId])).rows,
      (rs) => rs.every((r) => r.status === "failed"),
    );
    for (const r of rows) assert.equal(r.error, `cancelled: its parent job ${parentId} stopped`);
    assert.deepEqual(await parentStopped, Array(2).fill(`cancelled: its parent job ${parentId} stopped`));
    assert.equal((await row(parentId)).error, "stopped by the test");
  }));

test("a job's chat-model calls are counted on its top-level row: its children and its attempts share one budget", async () => {
  const BUDGET = 5;
  let made = 0;
  let refused = 0;
  /** Asks for `n` chat-model calls under the job's budget; counts those made and those refused. */
  const ask = async (n: number) => {
    for (let i = 0; i < n; i++) {
      try {
        await spendChatCall("stand-in");
        made++;
      } catch {
        refused++;
      }
    }
  };
  const handlers: JobHandlers = {
    parent: (_input, { signal, children, calls }) =>
      withCallBudget(
        BUDGET,
        "the test's budget",
        async () => {
          await ask(1);
          return children!.run(
            [0, 1, 2].map((n) => ({ jobType: "child", params: { n }, input: null })),
            { signal, concurrency: 2 },
          );
        },
        calls,
      ),
    child: (_input, { calls }) => withCallBudget(BUDGET, "the test's budget", () => ask(3), calls),
  };
  // A short lease: the job made pending again below is claimed at the next sweep, a third of it away.
  await withQueue(handlers, { concurrency: 1, leaseMs: 1_500 }, async (queue, row, db) => {
    const parent = await queue.enqueue({ jobType: "parent", params: {}, input: null });
    await waitFor(
      "the parent job to end",
      () => row(parent.jobId),
      (r) => r.status === "completed" || r.status === "failed",
    );
    // Counted per job, the children would have made 1 + 3 × 3 = 10 calls.
    assert.deepEqual({ made, refused }, { made: BUDGET, refused: 1 + 3 * 3 - BUDGET });
    const counted = async (id: string) => (await db.query<{ llm_calls: number }>(`SELECT llm_calls FROM jobs WHERE id = $1`, [id])).rows[0]!.llm_calls;
    assert.equal(await counted(parent.jobId), BUDGET);
    // A later attempt of a job (its process died; another claims it) finds the calls its first made.
    const again = await queue.enqueue({ jobType: "child", params: {}, input: null });
    await waitFor(
      "the job to end",
      () => row(again.jobId),
      (r) => r.status === "completed",
    );
    assert.equal(await counted(again.jobId), 3);
    await db.query(`UPDATE jobs SET status = 'pending', lease_owner = NULL WHERE id = $1`, [again.jobId]);
    await waitFor(
      "its second attempt to end",
      () => row(again.jobId),
      (r) => r.status === "completed" && r.attempts === 2,
    );
    assert.equal(await counted(again.jobId), BUDGET, "the second attempt made only the 2 calls left of its budget");
    assert.equal(made, BUDGET + 3 + 2);
  });
});

test("a parent job's later attempt adopts the children an earlier attempt left, finished ones too: none is queued or run twice", async () => {
  const ran: number[] = [];
  const handlers: JobHandlers = {
    parent: (_input, { signal, children }) =>
      children!.run(
        [0, 1, 2].map((n) => ({ jobType: "child", params: { n }, input: { n } })),
        { signal, concurrency: 2 },
      ),
    child: async (input) => {
      ran.push((input as { n: number }).n);
      return `run by this attempt`;
    },
  };
  const uri = await (await testPostgres()).createDatabase();
  const ws = await createWorkspace({ metadata_store_uri: uri });
  const db = new pg.Client({ connectionString: uri });
  let consumer: JobQueue | undefined;
  try {
    await db.connect();
    // The parent queued, not yet claimed (a queue that only enqueues), and what an earlier attempt
    // of it left (its process killed): child 0 finished by another process, child 1 still pending.
    const producer = await ws.app.createJobQueue(handlers, { consume: false });
    const parent = await producer.enqueue({ jobType: "parent", params: {}, input: null });
    const earlier = async (id: string, n: number, status: string, result: string | null) =>
      db.query(
        `INSERT INTO jobs (id, job_type, status, params_json, input_json, result_json, created_at, queued, owner_instance, owner_pid, owner_host)
         VALUES ($1, 'child', $2, $3, $4, $5, $6, true, 'earlier', 1, 'earlier-host')`,
        [id, status, JSON.stringify({ n, parent_job_id: parent.jobId }), JSON.stringify({ n }), result, new Date().toISOString()],
      );
    await earlier("job_earlier_0", 0, "completed", JSON.stringify("finished by the earlier attempt"));
    await earlier("job_earlier_1", 1, "pending", null);
    await producer.shutdown();
    consumer = await ws.app.createJobQueue(handlers, { consume: true, concurrency: 1, leaseMs: 60_000 });
    const ended = await waitFor(
      "the parent job to end",
      async () =>
        (
          await db.query<{ status: string; result_json: string | null; error: string | null }>(`SELECT status, result_json, error FROM jobs WHERE id = $1`, [
            parent.jobId,
          ])
        ).rows[0]!,
      (r) => r.status === "completed" || r.status === "failed",
    );
    assert.equal(ended.status, "completed", `error: ${ended.error}`);
    assert.deepEqual(JSON.parse(ended.result_json!), ["finished by the earlier attempt", "run by this attempt", "run by this attempt"]);
    assert.deepEqual(ran.sort(), [1, 2], "the finished child is not run again");
    const rows = await db.query<{ id: string }>(`SELECT id FROM jobs WHERE params_json::jsonb ->> 'parent_job_id' = $1 ORDER BY seq`, [parent.jobId]);
    assert.equal(rows.rows.length, 3, "one row per child: the earlier two adopted, the third queued");
    assert.deepEqual(
      rows.rows.slice(0, 2).map((r) => r.id),
      ["job_earlier_0", "job_earlier_1"],
    );
  } finally {
    await consumer?.shutdown();
    await db.end().catch(() => undefined);
    await ws.cleanup();
  }
});
