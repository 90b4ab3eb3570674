import { test } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startLongRunning, stop, waitFor } from "../helpers/long-running.js";
import { testPostgres } from "../helpers/postgres.js";
import { startOpenAiStub } from "../helpers/openai-server.js";

/**
 * A background benchmark over a collection on the PostgreSQL queue: its (document, variant)
 * processing units are `process_unit` jobs that `chunkeval worker` processes share.
 */

const STRATEGIES = ["recursive", "fixed_size", "semantic", "structure"];
const WORDS = "amber basalt cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon".split(" ");
const BOUND_MS = 120_000;

/** Paragraphs of sentences unique to `seed` (no cache or deduplication spans two documents). */
function generated(seed: number, paragraphs: number, extra = ""): string {
  const word = (i: number) => WORDS[(seed * 7 + i * 5) % WORDS.length];
  const text = Array.from({ length: paragraphs }, (_, p) =>
    Array.from({ length: 4 }, (_, s) => `Record ${seed}-${p}-${s} files the ${word(p + s)} ledger under shelf ${seed * 1000 + p * 10 + s}.`).join(" "),
  ).join("\n\n");
  return extra ? `${text}\n\n${extra}` : text;
}

interface UnitRow {
  id: string;
  status: string;
  attempts: number;
  error: string | null;
  lease_owner: string | null;
  params_json: string;
  result_json: string | null;
}

interface UnitResult {
  seconds: number;
  embedded: { computed: number; cached: number; computedTokens: number };
  ranBy: string;
}

/** A deployment on a fresh database: `serve --no-jobs` that only queues, and `workers` worker processes. */
async function deployment(dir: string, name: string, env: NodeJS.ProcessEnv, workers: number, workerArgs: string[] = []) {
  const uri = await (await testPostgres()).createDatabase();
  const envOf = (process: string) => ({
    CHUNKEVAL_DATA_DIR: join(dir, `${name}-${process}`),
    CHUNKEVAL_METADATA_STORE_URI: uri,
    // One vector store for the deployment: a worker's vectors must be the ones serve searches.
    CHUNKEVAL_VECTOR_STORE_URI: join(dir, `${name}-vectors`),
    CHUNKEVAL_EMBEDDER: "hash",
    ...env,
  });
  const children: ChildProcess[] = [];
  const db = new pg.Client({ connectionString: uri });
  await db.connect();
  const serve = await startLongRunning(["serve", "--port", "0", "--no-jobs"], envOf("serve"), /chunkeval serving on (http:\/\/127\.0\.0\.1:\d+)/);
  children.push(serve.child);
  const startWorker = async () => {
    const worker = await startLongRunning(["worker", ...workerArgs], envOf(`worker-${children.length}`), /chunkeval worker running jobs/);
    children.push(worker.child);
    return worker.child;
  };
  const workerProcesses: ChildProcess[] = [];
  for (let i = 0; i < workers; i++) workerProcesses.push(await startWorker());
  const url = serve.match[1]!;
  return {
    url,
    db,
    workers: workerProcesses,
    startWorker,
    async close() {
      await Promise.all(children.map(stop));
      await db.end().catch(() => undefined);
    },
    /** Uploads the documents, makes them a collection, queues its benchmark; returns the job id. */
    async queueBenchmark(documents: Array<{ name: string; text: string }>, strategies: string[]) {
      const ids: string[] = [];
      for (const d of documents) {
        const form = new FormData();
        form.append("file", new Blob([d.text]), d.name);
        const r = await fetch(`${url}/documents`, { method: "POST", body: form });
        assert.ok(r.status === 201 || r.status === 200, await r.clone().text());
        ids.push(((await r.json()) as { id: string }).id);
      }
      const collection = await fetch(`${url}/collections`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "units", document_ids: ids }),
      });
      assert.equal(collection.status, 201, await collection.clone().text());
      const questions = documents.map((d, i) => ({
        question: `What does record ${i}-1-1 file, and under which shelf?`,
        expected_answer: `shelf ${i * 1000 + 11}`,
        references: [{ document: d.name, text: `under shelf ${i * 1000 + 11}` }],
      }));
      const queued = await fetch(`${url}/benchmarks?background=true`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ collection_id: ((await collection.json()) as { id: string }).id, strategies, questions }),
      });
      assert.equal(queued.status, 202, await queued.clone().text());
      return ((await queued.json()) as { job_id: string }).job_id;
    },
    job: (id: string) =>
      db
        .query<{ status: string; error: string | null; result_json: string | null; lease_owner: string | null }>(`SELECT * FROM jobs WHERE id = $1`, [id])
        .then((r) => r.rows[0]!),
    units: (parent: string) =>
      db
        .query<UnitRow>(`SELECT * FROM jobs WHERE job_type = 'process_unit' AND params_json::jsonb ->> 'parent_job_id' = $1 ORDER BY seq`, [parent])
        .then((r) => r.rows),
  };
}

type Deployment = Awaited<ReturnType<typeof deployment>>;

async function ended(d: Deployment, jobId: string) {
  return waitFor(
    "the benchmark to end",
    () => d.job(jobId),
    (j) => j.status === "completed" || j.status === "failed",
    BOUND_MS,
  );
}

/** The stored experiment as the JSON report exports it (metrics and details). */
async function experimentOf(d: Deployment, jobId: string) {
  const job = await d.job(jobId);
  const id = (JSON.parse(job.result_json!) as { experiment_id: string }).experiment_id;
  const r = await fetch(`${d.url}/benchmarks/${id}/report?format=json`);
  assert.equal(r.status, 200);
  return (await r.json()) as {
    aggregate_metrics: Record<string, Record<string, unknown>>;
    per_document: Array<{ document_id: string }>;
    details: {
      indexing: Array<{ strategy: string; chunks: number; seconds: number; embedded_tokens: number; token_sizes: number[]; reused: boolean; cost_usd: number }>;
      embeddings: { computed: number; cached: number };
    };
  };
}

/**
 * What must not depend on how many workers ran the units: chunks, token sizes, embeddings.
 * Not the scores: over this generated text, chunks of different documents score within 0.001 of
 * each other, and in 2 of about 15 runs one of recursive's four questions ranked differently with
 * two workers than with one (cause not established). That every unit's vectors were stored and
 * are searched is checked directly instead (`searchableChunks`).
 */
function deterministic(e: Awaited<ReturnType<typeof experimentOf>>) {
  return {
    indexing: e.details.indexing.map((x) => ({ strategy: x.strategy, chunks: x.chunks, token_sizes: x.token_sizes, reused: x.reused })),
    // Two processes can both embed a text the strategies share where one process would have found it cached: the sum is what cannot move.
    embeddings: e.details.embeddings.computed + e.details.embeddings.cached,
  };
}

/** How many of a strategy's chunks a search of each document finds, summed (each document holds fewer than 100, the most a query returns). */
async function searchableChunks(d: Deployment, documentIds: string[], strategy: string): Promise<number> {
  let found = 0;
  for (const documentId of documentIds) {
    const r = await fetch(`${d.url}/queries`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ document_id: documentId, strategy, question: "Which ledger is filed under which shelf?", top_k: 100 }),
    });
    assert.equal(r.status, 201, await r.clone().text());
    found += ((await r.json()) as { retrieved_chunks: unknown[] }).retrieved_chunks.length;
  }
  return found;
}

/**
 * Runs `body` on a deployment of two workers with 3 s leases and slow embeddings (a stand-in
 * OpenAI-compatible server on 127.0.0.1 answering after 250 ms, so units run long enough to be
 * interrupted), once a benchmark of three documents over the four strategies is queued.
 */
async function withSlowBenchmark(name: string, body: (d: Deployment, jobId: string, documents: number) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-units-"));
  const stub = await startOpenAiStub({ delayMs: 250 });
  let d: Deployment | undefined;
  try {
    const env = { CHUNKEVAL_EMBEDDER: "openai:stub-embedding", CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" };
    // 3 s, not 1 s: renewed every second, a 1 s lease expired three times in a row beside the
    // test lanes on two cores (and a job whose lease expires three times is failed, not retried).
    d = await deployment(dir, name, env, 2, ["--lease-seconds", "3"]);
    const documents = Array.from({ length: 3 }, (_, i) => ({ name: `doc-${i}.txt`, text: generated(i, 40) }));
    await body(d, await d.queueBenchmark(documents, STRATEGIES), documents.length);
  } finally {
    await d?.close();
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("two workers share a collection benchmark's (document, variant) units; the experiment equals one worker's; its figures are the units' sums", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-units-"));
  const documents = Array.from({ length: 4 }, (_, i) => ({ name: `doc-${i}.txt`, text: generated(i, 120) }));
  const deployments: Deployment[] = [];
  try {
    const two = await deployment(dir, "two", {}, 2);
    deployments.push(two);
    const jobId = await two.queueBenchmark(documents, STRATEGIES);
    const job = await ended(two, jobId);
    assert.equal(job.status, "completed", `error: ${job.error}`);

    const units = await two.units(jobId);
    assert.equal(units.length, documents.length * STRATEGIES.length, "one unit per (document, variant)");
    assert.deepEqual(new Set(units.map((u) => u.status)), new Set(["completed"]));
    const results = units.map((u) => ({ ...(JSON.parse(u.params_json) as { strategy: string }), ...(JSON.parse(u.result_json!) as UnitResult) }));
    const ranBy = new Set(results.map((r) => Number(r.ranBy.split(":").at(-1))));
    assert.deepEqual(ranBy, new Set(two.workers.map((w) => w.pid)), "both workers ran units");
    // GET /jobs lists the units beside their benchmark.
    const listed = (await (await fetch(`${two.url}/jobs?job_type=process_unit&limit=100`)).json()) as { total: number; items: Array<{ params: unknown }> };
    assert.equal(listed.total, units.length);

    const experiment = await experimentOf(two, jobId);
    for (const strategy of STRATEGIES) {
      const own = results.filter((r) => r.strategy === strategy);
      const indexing = experiment.details.indexing.find((x) => x.strategy === strategy)!;
      assert.ok(Math.abs(indexing.seconds - own.reduce((n, r) => n + r.seconds, 0)) < 1e-9, `${strategy}: indexing seconds are its units' sum`);
      assert.equal(
        indexing.embedded_tokens,
        own.reduce((n, r) => n + r.embedded.computedTokens, 0),
        `${strategy}: embedded tokens are its units' sum`,
      );
      assert.equal(indexing.reused, false);
    }

    const one = await deployment(dir, "one", {}, 1);
    deployments.push(one);
    const single = await one.queueBenchmark(documents, STRATEGIES);
    assert.equal((await ended(one, single)).status, "completed");
    assert.deepEqual(deterministic(experiment), deterministic(await experimentOf(one, single)));
    // Every unit's vectors, wherever it ran, are in the shared store and searched.
    const documentIds = experiment.per_document.map((p) => p.document_id);
    for (const x of experiment.details.indexing)
      assert.equal(await searchableChunks(two, documentIds, x.strategy), x.chunks, `${x.strategy}: every chunk searchable`);
    const totalTokens = (e: Awaited<ReturnType<typeof experimentOf>>) => e.details.indexing.reduce((n, x) => n + x.embedded_tokens, 0);
    assert.ok(totalTokens(experiment) > 0);
  } finally {
    for (const d of deployments) await d.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a unit that fails fails its benchmark with the unit's error, naming document and variant; no unit is left pending", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-units-"));
  const module = join(dir, "fragile.mjs");
  writeFileSync(
    module,
    `export default { name: "fragile", description: "one chunk per document; refuses poisoned text", parameters: [],
       chunk({ text }) { if (text.includes("POISON")) throw new Error("fragile refuses poisoned text"); return [{ start: 0, end: text.length }]; } };\n`,
  );
  let d: Deployment | undefined;
  try {
    d = await deployment(dir, "fail", { CHUNKEVAL_STRATEGY_MODULES: module }, 2);
    const documents = [
      { name: "clean-0.txt", text: generated(0, 30) },
      { name: "poisoned.txt", text: generated(1, 30, "POISON") },
      { name: "clean-2.txt", text: generated(2, 30) },
    ];
    const jobId = await d.queueBenchmark(documents, ["recursive", "fragile"]);
    const job = await ended(d, jobId);
    assert.equal(job.status, "failed");
    assert.match(job.error!, /processing fragile for poisoned\.txt failed: .*fragile refuses poisoned text/);
    const units = await d.units(jobId);
    const failed = units.find((u) => JSON.parse(u.params_json).document_name === "poisoned.txt" && JSON.parse(u.params_json).strategy === "fragile")!;
    assert.equal(failed.status, "failed");
    assert.match(failed.error!, /fragile refuses poisoned text/);
    const settled = await waitFor(
      "no unit pending or running",
      () => d!.units(jobId),
      (rows) => rows.every((u) => u.status === "completed" || u.status === "failed"),
    );
    assert.equal(settled.length, 6);
  } finally {
    await d?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a unit whose worker is killed (SIGKILL) is taken over after its lease, and the benchmark completes", () =>
  withSlowBenchmark("kill", async (d, jobId) => {
    // The unit to kill is one the worker not running the benchmark holds, so that the kill stops a unit only.
    const held = (await waitFor(
      "a unit held by the worker that does not run the benchmark",
      async () => {
        const benchmark = await d.job(jobId);
        const units = await d.units(jobId);
        return units.find((u) => u.status === "running" && u.lease_owner && benchmark.lease_owner && u.lease_owner !== benchmark.lease_owner) ?? null;
      },
      (u) => u !== null,
    ))!;
    const victim = d.workers.find((w) => held.lease_owner!.includes(`:${w.pid}:`))!;
    assert.ok(victim, `the unit's holder is one of the workers: ${held.lease_owner}`);
    victim.kill("SIGKILL");
    await new Promise((resolve) => victim.once("exit", resolve));
    await d.startWorker();
    const job = await ended(d, jobId);
    assert.equal(job.status, "completed", `error: ${job.error}`);
    const unit = (await d.units(jobId)).find((u) => u.id === held.id)!;
    assert.equal(unit.status, "completed");
    assert.equal(unit.attempts, 2, "claimed by the killed worker, then taken over");
    assert.ok((await experimentOf(d, jobId)).details.indexing.every((x) => x.chunks > 0));
  }));

test("a benchmark stopped while its units run (its row failed, as a delete through another process does) cancels its unfinished units", () =>
  withSlowBenchmark("cancel", async (d, jobId) => {
    await waitFor(
      "a unit to run",
      () => d.units(jobId),
      (units) => units.some((u) => u.status === "running"),
    );
    await d.db.query(`UPDATE jobs SET status = 'failed', error = 'stopped by the test', lease_owner = NULL WHERE id = $1`, [jobId]);
    const units = await waitFor(
      "every unit to end",
      () => d.units(jobId),
      (rows) => rows.every((u) => u.status === "completed" || u.status === "failed"),
    );
    const cancelled = units.filter((u) => u.status === "failed");
    assert.ok(cancelled.length > 0, "some units had not finished when the benchmark stopped");
    for (const u of cancelled) assert.equal(u.error, `cancelled: its parent job ${jobId} stopped`);
    assert.equal((await d.job(jobId)).error, "stopped by the test");
  }));

/** The worker running the benchmark once it runs units of its own too, and its lease owner. */
async function holderRunningItsUnits(d: Deployment, jobId: string) {
  const benchmark = await waitFor(
    "the benchmark to run its own units",
    async () => ({ job: await d.job(jobId), units: await d.units(jobId) }),
    ({ job, units }) => job.status === "running" && units.some((u) => u.status === "running" && u.lease_owner === job.lease_owner),
  );
  const leaseOwner = benchmark.job.lease_owner!;
  return { holder: d.workers.find((w) => leaseOwner.includes(`:${w.pid}:`))!, leaseOwner };
}

test("a benchmark whose worker is killed (SIGKILL) mid-way is taken over; its new attempt adopts the unfinished units instead of queueing them again", () =>
  withSlowBenchmark("takeover", async (d, jobId, documents) => {
    const { holder } = await holderRunningItsUnits(d, jobId);
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    await d.startWorker();
    const job = await ended(d, jobId);
    assert.equal(job.status, "completed", `error: ${job.error}`);
    // Taken over at least once; with short leases a loaded machine can delay a heartbeat past its
    // lease and add a takeover, which is the queue working. What must hold whatever the load:
    // no unit is queued twice and none failed.
    assert.ok((await d.db.query(`SELECT attempts FROM jobs WHERE id = $1`, [jobId])).rows[0].attempts >= 2, "taken over");
    const units = await d.units(jobId);
    assert.equal(units.length, documents * STRATEGIES.length, "no unit queued twice");
    assert.deepEqual(new Set(units.map((u) => u.status)), new Set(["completed"]));
  }));

test("a benchmark whose worker stalls past its lease (SIGSTOP) is taken over; resumed, that worker leaves the units to the new attempt", () =>
  withSlowBenchmark("stall", async (d, jobId, documents) => {
    const { holder, leaseOwner } = await holderRunningItsUnits(d, jobId);
    holder.kill("SIGSTOP");
    try {
      await waitFor(
        "the other worker to take the benchmark over",
        () => d.job(jobId),
        (j) => j.status === "running" && j.lease_owner !== null && j.lease_owner !== leaseOwner,
      );
    } finally {
      holder.kill("SIGCONT");
    }
    const job = await ended(d, jobId);
    assert.equal(job.status, "completed", `error: ${job.error}`);
    // Taken over at least once; with short leases a loaded machine can delay a heartbeat past its
    // lease and add a takeover, which is the queue working. What must hold whatever the load:
    // no unit is queued twice and none failed.
    assert.ok((await d.db.query(`SELECT attempts FROM jobs WHERE id = $1`, [jobId])).rows[0].attempts >= 2, "taken over");
    const units = await d.units(jobId);
    assert.equal(units.length, documents * STRATEGIES.length, "no unit queued twice");
    assert.deepEqual(new Set(units.map((u) => u.status)), new Set(["completed"]), "no unit failed or cancelled by the stalled worker");
  }));
