/**
 * The `chunkeval worker` half of `npm run bench:replicas` (issue 24, item 5): kill -9 trials of the
 * PostgreSQL job queue, and a collection benchmark's wall time with 1 and 2 workers. Every process
 * goes through `run.running`, so the caller stops whatever is left at its end or time limit. Each
 * process has a data directory of its own; all of one deployment share its PostgreSQL database and
 * a vector store path (a worker's vectors in its own data directory would be invisible to `serve`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { startServe, startWorker } from "./load-helpers.ts";
import { startOpenAiStub } from "../test/helpers/openai-server.ts";

const STRATEGIES = ["recursive", "fixed_size", "semantic", "structure"];
const LEASE_SECONDS = 2;
/** A job not ended this long after its worker was killed is counted lost (the lease is 2 s, the sweep a third of it). */
const TRIAL_BOUND_MS = 90_000;

const WORDS = "amber basalt cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon meadow nickel orchid pebble quartz raven saffron tundra".split(
  " ",
);

/** A document of `paragraphs` paragraphs whose sentences are unique to `seed`, so no cache or deduplication spans two of them. */
export function generatedDocument(seed, paragraphs) {
  const word = (i) => WORDS[(seed * 7 + i * 13) % WORDS.length];
  return Array.from({ length: paragraphs }, (_, p) =>
    Array.from(
      { length: 4 },
      (_, s) => `Record ${seed}-${p}-${s} files the ${word(p + s)} ledger under shelf ${seed * 1000 + p * 10 + s} beside the ${word(p * s + 3)} crate.`,
    ).join(" "),
  ).join("\n\n");
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; 100 ticks a second), or NaN. */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The machine's busy and total CPU seconds so far, from /proc/stat (all cores), or NaN. */
function machineCpu() {
  try {
    const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = ticks[3] + ticks[4];
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

async function poll(what, read, done, boundMs) {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - start > boundMs) return { timedOut: true, last: value, what };
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function json(response, expected, what) {
  const body = await response.json();
  if (!expected.includes(response.status)) throw new Error(`${what}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function uploadText(url, name, text) {
  const form = new FormData();
  form.append("file", new Blob([text]), name);
  return (await json(await fetch(`${url}/documents`, { method: "POST", body: form }), [200, 201], `upload ${name}`)).id;
}

async function start(run, starter, env, extra) {
  const child = await starter(env, extra);
  run.running.add(child);
  return child;
}

async function stopAll(run, children) {
  for (const child of children) {
    await child.stop();
    run.running.delete(child);
  }
}

/**
 * `count` trials on one deployment (`serve --no-jobs`, two workers with 2 s leases): each queues
 * the processing of a fresh document, SIGKILLs the worker whose lease holds it (read from the
 * `jobs` row), starts a replacement so two workers remain, and waits for the job to end. Embeddings
 * come from a stand-in OpenAI-compatible server on 127.0.0.1 that answers after 250 ms, so the job
 * is still running when its worker is killed. A completed job counts only if its strategies are
 * really stored: a query on each answers 201
 * (a strategy's query answering otherwise counts the job lost, with the answer).
 */
export async function killTrials(run, count) {
  const stub = await startOpenAiStub({ delayMs: 250 });
  const uri = await run.postgres.createDatabase();
  const env = (name) => ({
    ...process.env,
    CHUNKEVAL_DATA_DIR: join(run.root, `kill-${name}`),
    CHUNKEVAL_METADATA_STORE_URI: uri,
    CHUNKEVAL_VECTOR_STORE_URI: join(run.root, "kill-vectors"),
    CHUNKEVAL_EMBEDDER: "openai:stub-embedding",
    CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl,
    CHUNKEVAL_OPENAI_API_KEY: "k",
  });
  const db = new pg.Client({ connectionString: uri });
  await db.connect();
  const tally = { count, takenOver: 0, failed: 0, lost: 0, failures: [], notKilled: 0 };
  const serve = await start(run, startServe, env("serve"), ["--no-jobs"]);
  let workers = [];
  let spawned = 0;
  const newWorker = async () => start(run, startWorker, env(`worker-${spawned++}`), ["--lease-seconds", String(LEASE_SECONDS)]);
  try {
    workers = [await newWorker(), await newWorker()];
    for (let trial = 0; trial < count; trial++) {
      const documentId = await uploadText(serve.url, `trial-${trial}.txt`, generatedDocument(100 + trial, 40));
      const queued = await fetch(`${serve.url}/documents/${documentId}/process?background=true`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ strategies: STRATEGIES }),
      });
      const jobId = (await json(queued, [202], "queue process")).job_id;
      const row = () => db.query(`SELECT status, lease_owner, attempts, error FROM jobs WHERE id = $1`, [jobId]).then((r) => r.rows[0]);
      const claimed = await poll("a claim", row, (r) => r.status !== "pending" && (r.status !== "running" || r.lease_owner), 30_000);
      const holder = claimed.status === "running" ? workers.find((w) => claimed.lease_owner.includes(`:${w.pid}:`)) : undefined;
      if (!holder) {
        // Ended before it could be killed, or held by no worker we know: not a trial of a kill.
        tally.notKilled++;
        continue;
      }
      await holder.kill9();
      run.running.delete(holder);
      workers = [...workers.filter((w) => w !== holder), await newWorker()];
      const ended = await poll("the job to end", row, (r) => r.status === "completed" || r.status === "failed", TRIAL_BOUND_MS);
      if (ended.timedOut) {
        tally.lost++;
        tally.failures.push(`trial ${trial}: still ${ended.last.status} after ${TRIAL_BOUND_MS / 1000} s`);
      } else if (ended.status === "failed") {
        tally.failed++;
        tally.failures.push(`trial ${trial}: failed: ${ended.error}`);
      } else {
        const stored = await Promise.all(
          STRATEGIES.map(async (strategy) => {
            const r = await fetch(`${serve.url}/queries`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ document_id: documentId, strategy, question: "Which ledger is under shelf 100?", top_k: 1 }),
            });
            return r.status === 201 ? "" : `${strategy}: ${r.status} ${await r.text()}`;
          }),
        );
        const missing = stored.filter(Boolean);
        if (missing.length === 0) tally.takenOver++;
        else {
          tally.lost++;
          tally.failures.push(`trial ${trial}: completed (attempts ${ended.attempts}) but not queryable: ${missing.join("; ")}`);
        }
      }
    }
  } finally {
    await stopAll(run, [...workers, serve]);
    await db.end().catch(() => undefined);
    await stub.close();
  }
  return tally;
}

/** The process_unit jobs of a benchmark job, with the process that ran each. */
async function unitsOf(uri, jobId) {
  const db = new pg.Client({ connectionString: uri });
  await db.connect();
  try {
    const { rows } = await db.query(`SELECT result_json FROM jobs WHERE job_type = 'process_unit' AND params_json::jsonb ->> 'parent_job_id' = $1`, [jobId]);
    return rows.map((r) => JSON.parse(r.result_json ?? "{}"));
  } finally {
    await db.end();
  }
}

/**
 * Wall time of one background collection benchmark (`documents` generated documents, questions
 * inline, four strategies, `hash` embedder) on a fresh database, with `workers` worker processes
 * and a `serve --no-jobs` that only queues: from `POST /benchmarks?background=true` to the job's end.
 */
export async function collectionWallTime(run, workers, documents, { embedder = "hash", embedderWorkers, paragraphs = 300, workerArgs = [] } = {}) {
  const uri = await run.postgres.createDatabase();
  const label = `${workers}-${embedder}-${embedderWorkers ?? "default"}`;
  const env = (name) => ({
    ...process.env,
    CHUNKEVAL_DATA_DIR: join(run.root, `collection-${label}-${name}`),
    CHUNKEVAL_METADATA_STORE_URI: uri,
    CHUNKEVAL_VECTOR_STORE_URI: join(run.root, `collection-${label}-vectors`),
    CHUNKEVAL_EMBEDDER: embedder,
    ...(embedderWorkers === undefined ? {} : { CHUNKEVAL_EMBEDDER_WORKERS: String(embedderWorkers) }),
  });
  const serve = await start(run, startServe, env("serve"), ["--no-jobs"]);
  const children = [serve];
  try {
    for (let i = 0; i < workers; i++) children.push(await start(run, startWorker, env(`worker-${i}`), workerArgs));
    const ids = [];
    const questions = [];
    for (let d = 0; d < documents; d++) {
      const name = `collection-${d}.txt`;
      ids.push(await uploadText(serve.url, name, generatedDocument(d, paragraphs)));
      for (const p of [3, Math.floor(paragraphs / 2), paragraphs - 2]) {
        questions.push({
          question: `What does record ${d}-${p}-1 file, and under which shelf?`,
          expected_answer: `shelf ${d * 1000 + p * 10 + 1}`,
          references: [{ document: name, text: `under shelf ${d * 1000 + p * 10 + 1}` }],
        });
      }
    }
    const collection = await json(
      await fetch(`${serve.url}/collections`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: `bench-${label}`, document_ids: ids }),
      }),
      [201],
      "create collection",
    );
    const workerPids = children.slice(1).map((c) => c.pid);
    const cpuBefore = workerPids.map(cpuSecondsOf);
    const machineBefore = machineCpu();
    const t0 = performance.now();
    const queued = await fetch(`${serve.url}/benchmarks?background=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ collection_id: collection.id, strategies: STRATEGIES, questions }),
    });
    const jobId = (await json(queued, [202], "queue benchmark")).job_id;
    const job = await poll(
      "the benchmark",
      () => fetch(`${serve.url}/jobs/${jobId}`).then((r) => r.json()),
      (j) => j.status === "completed" || j.status === "failed",
      300_000,
    );
    const seconds = (performance.now() - t0) / 1000;
    const workerCpu = workerPids.map((pid, i) => cpuSecondsOf(pid) - cpuBefore[i]);
    const machineAfter = machineCpu();
    if (job.timedOut || job.status !== "completed") throw new Error(`collection benchmark with ${workers} worker(s) did not complete: ${JSON.stringify(job)}`);
    const experimentId = job.result?.id ?? job.result?.experiment_id;
    const experiment = await fetch(`${serve.url}/benchmarks/${experimentId}/report?format=json`);
    if (experiment.status !== 200) throw new Error(`the benchmark's experiment ${experimentId} is not stored: ${experiment.status}`);
    const { details } = await experiment.json();
    const units = await unitsOf(uri, jobId);
    return {
      workers,
      seconds,
      documents,
      questions: questions.length,
      // The benchmark's own stages: processing (its units), then the questions (asked and scored in the benchmark's process only).
      processingSeconds: details.stage_seconds.processing,
      questionSeconds: details.stage_seconds.retrieval + details.stage_seconds.generation + details.stage_seconds.judging,
      units: units.length,
      unitsByProcess: units.reduce((n, u) => ({ ...n, [u.ranBy]: (n[u.ranBy] ?? 0) + 1 }), {}),
      workerCpuSeconds: workerCpu,
      machineBusyCores: (machineAfter.busy - machineBefore.busy) / seconds,
    };
  } finally {
    await stopAll(run, children);
  }
}
