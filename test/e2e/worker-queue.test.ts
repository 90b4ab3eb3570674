import { test } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { runCli } from "../helpers/cli.js";
import { startLongRunning, stop, waitFor } from "../helpers/long-running.js";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { sharedPostgres } from "../helpers/metadata-stores.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { attemptsExhaustedError, MAX_JOB_ATTEMPTS } from "../../src/stores/postgres/job-queue.js";

test("chunkeval worker refuses a SQLite metadata store (exit 2): SQLite jobs run inside the server that queued them", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-worker-"));
  try {
    const result = await runCli(["worker"], { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /chunkeval worker needs a PostgreSQL metadata_store_uri/);
    const noJobs = await runCli(["serve", "--port", "0", "--no-jobs"], { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" });
    assert.equal(noJobs.code, 2, noJobs.stderr);
    assert.match(noJobs.stderr, /--no-jobs needs a PostgreSQL metadata_store_uri/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a job whose worker is killed (SIGKILL) is taken over by another worker after its lease; one whose workers died 3 times is failed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-worker-"));
  // Slow embeddings (a stand-in OpenAI-compatible server on 127.0.0.1) keep the job running long enough to kill its worker mid-way.
  const stub = await startOpenAiStub({ delayMs: 250 });
  const uri = await (await sharedPostgres()).createDatabase();
  const db = new pg.Client({ connectionString: uri });
  const env = {
    CHUNKEVAL_DATA_DIR: join(dir, "data"),
    CHUNKEVAL_METADATA_STORE_URI: uri,
    CHUNKEVAL_EMBEDDER: "openai:stub-embedding",
    CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl,
    CHUNKEVAL_OPENAI_API_KEY: "k",
  };
  const children: ChildProcess[] = [];
  try {
    const uploaded = await runCli(["upload", HANDBOOK_PATH], env);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    const serve = await startLongRunning(["serve", "--port", "0", "--no-jobs"], env, /chunkeval serving on (http:\/\/127\.0\.0\.1:\d+)/);
    children.push(serve.child);
    const url = serve.match[1]!;
    const documentId = ((await (await fetch(`${url}/documents`)).json()) as { items: Array<{ id?: string; document_id?: string }> }).items[0]!;
    const id = documentId.document_id ?? documentId.id!;

    const first = await startLongRunning(["worker", "--lease-seconds", "1"], env, /chunkeval worker running jobs/);
    children.push(first.child);
    const enqueued = await fetch(`${url}/documents/${id}/process?background=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ strategies: ["recursive", "fixed_size", "semantic", "structure"] }),
    });
    assert.equal(enqueued.status, 202, await enqueued.clone().text());
    const jobId = ((await enqueued.json()) as { job_id: string }).job_id;

    await db.connect();
    const row = () =>
      db
        .query<{ status: string; lease_owner: string | null; attempts: number; error: string | null }>(
          `SELECT status, lease_owner, attempts, error FROM jobs WHERE id = $1`,
          [jobId],
        )
        .then((r) => r.rows[0]!);
    const claimed = await waitFor("the first worker to claim the job", row, (r) => r.status !== "pending");
    assert.equal(claimed.status, "running", `the job ended before its worker could be killed: ${JSON.stringify(claimed)}`);
    assert.match(claimed.lease_owner!, new RegExp(`:${first.child.pid}:`));
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    assert.equal((await row()).status, "running", "the killed worker's job stays claimed until its lease expires");

    const second = await startLongRunning(["worker", "--lease-seconds", "1"], env, /chunkeval worker running jobs/);
    children.push(second.child);
    const finished = await waitFor("the job to end", row, (r) => r.status === "completed" || r.status === "failed");
    assert.equal(finished.status, "completed", `error: ${finished.error}`);
    assert.equal(finished.attempts, 2, "claimed by the killed worker, then taken over by the second");
    assert.equal(finished.lease_owner, null);
    // GET /jobs (what any replica shows) reads the same row.
    const polled = (await (await fetch(`${url}/jobs/${jobId}`)).json()) as { status: string; result: unknown };
    assert.equal(polled.status, "completed");
    assert.ok(polled.result);

    // A job whose workers all died: claimed MAX_JOB_ATTEMPTS times (set here, as three kills would leave it) with its lease expired.
    await stop(second.child);
    const again = await fetch(`${url}/documents/${id}/process?background=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ strategies: ["recursive"] }),
    });
    const doomedId = ((await again.json()) as { job_id: string }).job_id;
    await db.query(`UPDATE jobs SET status = 'running', lease_owner = 'gone', lease_expires_at_ms = 0, attempts = $2 WHERE id = $1`, [
      doomedId,
      MAX_JOB_ATTEMPTS,
    ]);
    const doomed = (await (await fetch(`${url}/jobs/${doomedId}`)).json()) as { status: string };
    assert.equal(doomed.status, "running");
    const third = await startLongRunning(["worker", "--lease-seconds", "1"], env, /chunkeval worker running jobs/);
    children.push(third.child);
    const gaveUp = await waitFor(
      "the exhausted job to fail",
      () => fetch(`${url}/jobs/${doomedId}`).then((r) => r.json() as Promise<{ status: string; error?: string }>),
      (j) => j.status !== "running",
    );
    assert.deepEqual(gaveUp, { ...gaveUp, status: "failed", error: attemptsExhaustedError(MAX_JOB_ATTEMPTS) });
  } finally {
    await Promise.all(children.map(stop));
    await db.end().catch(() => undefined);
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
