import { test } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { runCli } from "../helpers/cli.js";
import { startLongRunning, stop, waitFor } from "../helpers/long-running.js";
import { HANDBOOK_PATH, handbookBytes } from "../helpers/documents.js";
import { storedPointRows } from "../helpers/stored-points.js";
import { deletedDocumentReason } from "../../src/domain/ports/job-queue.js";
import { INGESTION_INTERRUPTED } from "../../src/services/ingestion/ingestion-recovery.js";
import { testPostgres } from "../helpers/postgres.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { attemptsExhaustedError, MAX_JOB_ATTEMPTS } from "../../src/stores/postgres/job-queue.js";

/**
 * A PostgreSQL database and an OpenAI-compatible embedder stand-in on 127.0.0.1 answering after
 * `delayMs` (slow embeddings keep a job running long enough to act on it mid-way), with the
 * environment of the chunkeval processes using them; `cleanup` stops the processes in `children`.
 */
async function slowEmbedderDeployment(delayMs: number) {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-worker-"));
  const stub = await startOpenAiStub({ delayMs });
  const uri = await (await testPostgres()).createDatabase();
  const db = new pg.Client({ connectionString: uri });
  const env = {
    CHUNKEVAL_DATA_DIR: join(dir, "data"),
    CHUNKEVAL_METADATA_STORE_URI: uri,
    CHUNKEVAL_VECTOR_STORE_URI: join(dir, "lancedb"),
    CHUNKEVAL_EMBEDDER: "openai:stub-embedding",
    CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl,
    CHUNKEVAL_OPENAI_API_KEY: "k",
  };
  const children: ChildProcess[] = [];
  const cleanup = async () => {
    await Promise.all(children.map(stop));
    await db.end().catch(() => undefined);
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, db, env, children, cleanup };
}

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
  // Slow embeddings keep the job running long enough to kill its worker mid-way.
  const { db, env, children, cleanup } = await slowEmbedderDeployment(250);
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
    await cleanup();
  }
});

/** A `serve --no-jobs` (added to `children`) with a tenant, a key with every /v1 scope and a domain, made through the CLI and its /v1 API. */
async function v1Serve(env: NodeJS.ProcessEnv, children: ChildProcess[]) {
  const serve = await startLongRunning(["serve", "--port", "0", "--no-jobs"], env, /chunkeval serving on (http:\/\/127\.0\.0\.1:\d+)/);
  children.push(serve.child);
  const url = serve.match[1]!;
  return { serve, url, auth: await v1Tenant(env, url) };
}

/** A tenant, a key with every /v1 scope and a domain, made through the CLI and `url`'s /v1 API. */
async function v1Tenant(env: NodeJS.ProcessEnv, url: string): Promise<{ authorization: string }> {
  assert.equal((await runCli(["tenants", "create", "acme"], env)).code, 0);
  const created = await runCli(["keys", "create", "--tenant", "acme", "--scopes", "files:write,domains:write,domains:read,points:read"], env);
  assert.equal(created.code, 0, created.stderr);
  const auth = { authorization: `Bearer ${created.stdout.trim().split("\n").at(-1)!}` };
  const domain = await fetch(`${url}/v1/domains`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ domain: "manuals", display_name: "Manuals" }),
  });
  assert.equal(domain.status, 201);
  return auth;
}

/** POST /v1/files of the handbook, answered when the ingestion ends (whichever process runs it). */
async function v1Upload(url: string, auth: { authorization: string }): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append("domain", "manuals");
  form.append("file", new Blob([handbookBytes()]), "handbook.docx");
  const r = await fetch(`${url}/v1/files`, { method: "POST", body: form, headers: auth });
  return { status: r.status, body: await r.json() };
}

/** What a /v1 ingestion left in PostgreSQL: its job row, its queue job, the versions and the originals of /v1 files. */
async function v1State(db: pg.Client) {
  const ingestion = (
    await db.query<{ id: string; status: string; error_code: string | null; error: string | null }>(`SELECT * FROM ingestion_jobs ORDER BY seq`)
  ).rows;
  const queued = (
    await db.query<{ id: string; status: string; attempts: number; error: string | null; lease_owner: string | null }>(
      `SELECT id, status, attempts, error, lease_owner FROM jobs WHERE job_type = 'v1_ingestion' ORDER BY seq`,
    )
  ).rows;
  const versions = (await db.query<{ id: string; committed: boolean; object_path: string }>(`SELECT id, committed, object_path FROM source_files`)).rows;
  const originals = (await db.query<{ location: string }>(`SELECT location FROM originals WHERE location LIKE 'postgres:originals/objects/%'`)).rows;
  return { ingestion, queued, versions, originals };
}

test("a /v1 upload accepted by serve --no-jobs is run by a worker from the shared original; its worker killed (SIGKILL), another completes it", async () => {
  // Slow embeddings keep the ingestion running long enough to kill its worker mid-way.
  const { dir, db, env, children, cleanup } = await slowEmbedderDeployment(400);
  // Each worker has a data directory of its own: the upload's bytes can reach it only through the shared originals.
  const workerEnv = (name: string) => ({ ...env, CHUNKEVAL_DATA_DIR: join(dir, name) });
  try {
    const { url, auth } = await v1Serve(env, children);
    await db.connect();

    const first = await startLongRunning(["worker", "--lease-seconds", "1"], workerEnv("worker-1"), /chunkeval worker running jobs/);
    children.push(first.child);
    const answer = v1Upload(url, auth);
    const claimed = await waitFor(
      "the first worker to claim the ingestion",
      () => v1State(db),
      (s) => s.queued[0]?.status === "running",
    );
    assert.match(claimed.queued[0]!.lease_owner!, new RegExp(`:${first.child.pid}:`));
    assert.deepEqual(
      claimed.versions.map((v) => v.committed),
      [false],
      "the version is allocated when the upload is accepted, uncommitted",
    );
    assert.equal(claimed.originals.length, 1, "the original is in the shared store");
    assert.equal(claimed.versions[0]!.object_path, claimed.originals[0]!.location);
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    const orphaned = await v1State(db);
    assert.deepEqual([orphaned.ingestion[0]!.status, orphaned.queued[0]!.status], ["running", "running"], "killed before it finished");

    const second = await startLongRunning(["worker", "--lease-seconds", "1"], workerEnv("worker-2"), /chunkeval worker running jobs/);
    children.push(second.child);
    const uploaded = await answer;
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    assert.equal(uploaded.body.version, 1);
    assert.ok(uploaded.body.chunks_indexed > 0);
    // The row is completed before the upload is answered; the queue job is marked after its handler returns.
    const done = await waitFor(
      "the queue job to end",
      () => v1State(db),
      (s) => s.queued[0]?.status !== "running",
    );
    assert.deepEqual(
      done.ingestion.map((j) => [j.id, j.status]),
      [[uploaded.body.ingestion_job_id, "completed"]],
    );
    assert.deepEqual(
      done.queued.map((j) => [j.status, j.attempts]),
      [["completed", 2]],
      "claimed by the killed worker, then taken over",
    );
    assert.deepEqual(
      done.versions.map((v) => [v.id, v.committed]),
      [[uploaded.body.file_id, true]],
    );
    assert.equal(done.originals.length, 1, "the version's original is kept");
    // Exactly the new version's points are there: the killed attempt's hidden points were removed, none half-written is visible.
    const job = (await (await fetch(`${url}/v1/ingestion-jobs/${uploaded.body.ingestion_job_id}`, { headers: auth })).json()) as any;
    assert.deepEqual([job.status, job.chunks_indexed], ["completed", uploaded.body.chunks_indexed]);
    const points = (await (await fetch(`${url}/v1/points?limit=500`, { headers: auth })).json()) as any;
    assert.equal(points.total, uploaded.body.chunks_indexed);
    const search = await fetch(`${url}/v1/search`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ query: "What number should I call to report a power cut?", top_k: 3 }),
    });
    assert.equal(((await search.json()) as any).items.length, 3);
    const stored = await storedPointRows(dir);
    assert.equal(stored, uploaded.body.chunks_indexed, "no hidden point of the killed attempt left in LanceDB");
  } finally {
    await cleanup();
  }
});

test("a /v1 ingestion never stays running: workers dead 3 times fail the upload with the queue's reason; all processes gone, a worker ends it", async () => {
  const deployment = await slowEmbedderDeployment(0);
  const { dir, db, children, cleanup } = deployment;
  // 8 s: long enough for a worker started below to come up and claim the row on a loaded machine
  // (a worker's start-up took over 3 s beside the parallel lanes).
  const env = { ...deployment.env, CHUNKEVAL_EMBEDDER: "hash", INGESTION_TIMEOUT_SECONDS: "8" };
  const exhaust = (id: string) =>
    db.query(`UPDATE jobs SET status = 'running', lease_owner = 'gone', lease_expires_at_ms = 0, attempts = $2 WHERE id = $1`, [id, MAX_JOB_ATTEMPTS]);
  try {
    const { serve, url, auth } = await v1Serve(env, children);
    await db.connect();

    // No worker at all: the upload times out waiting, and its version and original go at once.
    const late = await v1Upload(url, auth);
    assert.equal(late.status, 504, JSON.stringify(late.body));
    assert.equal(late.body.error.message, "ingestion exceeded INGESTION_TIMEOUT_SECONDS (8) while waiting for a process to run it");
    const unstarted = await v1State(db);
    assert.deepEqual(
      unstarted.ingestion.map((j) => [j.status, j.error_code]),
      [["failed", "ingestion_timeout"]],
    );
    assert.deepEqual([unstarted.versions, unstarted.originals], [[], []]);
    const first = unstarted.queued[0]!.id;

    // Claimed 3 times by workers that died (as three kills would leave it): the next claim fails it, and the waiting replica fails the row.
    const answer = v1Upload(url, auth);
    const queued = await waitFor(
      "the ingestion to be queued",
      () => v1State(db),
      (s) => s.queued.length === 2,
    );
    await exhaust(queued.queued.find((j) => j.id !== first)!.id);
    const worker = await startLongRunning(
      ["worker", "--lease-seconds", "1"],
      { ...env, CHUNKEVAL_DATA_DIR: join(dir, "worker") },
      /chunkeval worker running jobs/,
    );
    children.push(worker.child);
    const refused = await answer;
    assert.equal(refused.status, 502, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, "index_failed");
    assert.equal(refused.body.error.message, `ingestion failed: ${attemptsExhaustedError(MAX_JOB_ATTEMPTS)}`);
    const failed = await v1State(db);
    assert.deepEqual(failed.ingestion.map((j) => [j.status, j.error]).slice(1), [["failed", refused.body.error.message]]);
    assert.deepEqual([failed.versions, failed.originals], [[], []], "its version and original are removed");

    // Now the replica that accepted the upload dies too, before any worker could run it: a worker ends it once its deadline is past.
    await stop(worker.child);
    const orphan = v1Upload(url, auth).catch(() => null);
    const second = await waitFor(
      "the second ingestion to be queued",
      () => v1State(db),
      (s) => s.queued.length === 3,
    );
    serve.child.kill("SIGKILL");
    await orphan;
    await exhaust(second.queued.find((j) => j.status === "pending")!.id);
    const sweeper = await startLongRunning(
      ["worker", "--lease-seconds", "1"],
      { ...env, CHUNKEVAL_DATA_DIR: join(dir, "worker") },
      /chunkeval worker running jobs/,
    );
    children.push(sweeper.child);
    const ended = await waitFor(
      "the orphaned ingestion to end and what it wrote to go (the row is failed first, then its version and original removed)",
      () => v1State(db),
      (s) => s.ingestion.every((j) => j.status !== "running") && s.versions.length === 0 && s.originals.length === 0,
    );
    assert.deepEqual(
      ended.ingestion.map((j) => j.status),
      ["failed", "failed", "failed"],
    );
    assert.ok(ended.ingestion.some((j) => j.error === INGESTION_INTERRUPTED));
    assert.deepEqual([ended.versions, ended.originals], [[], []], "nothing of it is left");
  } finally {
    await cleanup();
  }
});

test("CLI delete on PostgreSQL fails the document's queued and running jobs with the reason a server's delete gives", async () => {
  // 1 s per embedding call: the running job must still be running when `chunkeval delete` (a
  // process of its own, slower to start on a loaded machine) reaches it.
  const { db, env, children, cleanup } = await slowEmbedderDeployment(1000);
  try {
    const uploaded = await runCli(["upload", HANDBOOK_PATH, "--json"], env);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    const { id, filename } = JSON.parse(uploaded.stdout) as { id: string; filename: string };
    const serve = await startLongRunning(["serve", "--port", "0", "--no-jobs"], env, /chunkeval serving on (http:\/\/127\.0\.0\.1:\d+)/);
    children.push(serve.child);
    const url = serve.match[1]!;
    const enqueue = async (strategies: string[]) => {
      const r = await fetch(`${url}/documents/${id}/process?background=true`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ strategies }),
      });
      assert.equal(r.status, 202);
      return ((await r.json()) as { job_id: string }).job_id;
    };
    await db.connect();
    const row = (jobId: string) =>
      db.query<{ status: string; error: string | null }>(`SELECT status, error FROM jobs WHERE id = $1`, [jobId]).then((r) => r.rows[0]!);
    // One job running in a worker (max_background_jobs 1), one queued behind it.
    const worker = await startLongRunning(["worker", "--lease-seconds", "1"], env, /chunkeval worker running jobs/);
    children.push(worker.child);
    const running = await enqueue(["recursive", "fixed_size", "semantic", "structure"]);
    await waitFor(
      "the worker to claim the first job",
      () => row(running),
      (r) => r.status === "running",
    );
    const queued = await enqueue(["recursive"]);
    assert.equal((await row(queued)).status, "pending");

    const deleted = await runCli(["delete", id], env);
    assert.equal(deleted.code, 0, deleted.stderr);
    const reason = deletedDocumentReason(filename, id);
    assert.deepEqual(await row(queued), { status: "failed", error: reason });
    assert.deepEqual(await row(running), { status: "failed", error: reason });
    // The worker stops it at its next lease renewal, and the reason stays (not "document not found").
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(await row(running), { status: "failed", error: reason });
    assert.equal((await runCli(["delete", id], env)).code, 3, "a second delete finds nothing (exit 3)");
  } finally {
    await cleanup();
  }
});
