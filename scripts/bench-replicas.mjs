/**
 * Several replicas on one deployment, measured (issue 24, item 5): starts a throwaway PostgreSQL
 * (Debian's `postgresql` package, as the tests do), an S3-compatible stand-in and N `chunkeval
 * serve` replicas on 127.0.0.1, each with a data directory of its own, all on that PostgreSQL and
 * an `s3://` vector store, with the `hash` embedder so the embedder does not hide the stores. For
 * 1 and 2 replicas (a fresh database and bucket prefix each) it prints:
 *
 * - `/v1` ingestion: `--files` uploads of the example handbook (distinct file names) sent from 4
 *   clients round-robin across the replicas; points created per second of wall time;
 * - `/v1/search`: `--requests` searches from 8 clients round-robin across the replicas; p50, p99;
 * - `chunkeval worker` (`bench-workers.mjs`): `--kills` kill -9 trials of a queued job's worker
 *   (taken over, marked failed, lost), and the wall time of a background benchmark of a
 *   `--documents` collection with 1 and 2 workers. The benchmark is split into (document, variant)
 *   `process_unit` jobs; it is measured with the `hash` embedder and with the default `use` model
 *   limited to one embedding thread per worker, and the figures say where the time went
 *   (processing, questions) and what was busy.
 *
 * Bounded: each phase has a fixed amount of work and the whole run a time limit, after which
 * everything it started is stopped and it exits 1.
 *
 *   npm run bench:replicas [-- --files 24] [-- --requests 300] [-- --kills 5] [-- --documents 8] [-- --only workers]
 *
 * `--only workers` skips the replicas' /v1 part (the worker half alone).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BIN, measure, startServe } from "./load-helpers.ts";
import { collectionWallTime, killTrials } from "./bench-workers.mjs";
import { startPostgres } from "../test/helpers/postgres.ts";
import { startS3Server } from "../test/helpers/s3-server.ts";

const { values } = parseArgs({
  options: {
    files: { type: "string", default: "24" },
    requests: { type: "string", default: "300" },
    kills: { type: "string", default: "5" },
    documents: { type: "string", default: "8" },
    only: { type: "string", default: "all" },
  },
});
const files = Math.min(200, Math.max(4, Number(values.files)));
const requests = Math.min(5000, Math.max(20, Number(values.requests)));
const kills = Math.min(50, Math.max(1, Number(values.kills)));
const collectionDocuments = Math.min(50, Math.max(2, Number(values.documents)));
const REPLICA_COUNTS = [1, 2];
const TIME_LIMIT_MS = 15 * 60_000;

const handbook = readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url));
const questions = JSON.parse(readFileSync(new URL("../questions/harbor-light-handbook.json", import.meta.url), "utf8")).map((q) => q.question);

const root = mkdtempSync(join(tmpdir(), "chunkeval-bench-replicas-"));
const postgres = await startPostgres();
const s3 = await startS3Server();
/** Everything this run started that is still running: stopped at the end, or at the time limit. */
const running = new Set();
const stopAll = async () => {
  await Promise.all([...running].map((r) => r.stop()));
  await s3.close();
  await postgres.stop();
  rmSync(root, { recursive: true, force: true });
};
const limit = setTimeout(() => {
  console.error(`bench:replicas: over ${TIME_LIMIT_MS / 60_000} min, stopping`);
  void stopAll().finally(() => process.exit(1));
}, TIME_LIMIT_MS);

/** Sends `total` jobs from `concurrency` clients; resolves when all are done. */
async function pool(total, concurrency, job) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await job(next++);
    }),
  );
}

async function deployment(replicas) {
  const shared = {
    ...process.env,
    ...s3.env,
    CHUNKEVAL_METADATA_STORE_URI: await postgres.createDatabase(),
    CHUNKEVAL_VECTOR_STORE_URI: `s3://${s3.bucket}/lancedb-${replicas}`,
    CHUNKEVAL_EMBEDDER: "hash",
  };
  const envOf = (name) => ({ ...shared, CHUNKEVAL_DATA_DIR: join(root, `${replicas}-${name}`) });
  const cli = (args) => {
    const r = spawnSync(process.execPath, [BIN, ...args, "--json"], { env: envOf("admin"), encoding: "utf8" });
    if (r.status !== 0) throw new Error(`chunkeval ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  cli(["tenants", "create", "bench"]);
  const key = JSON.parse(cli(["keys", "create", "--tenant", "bench", "--scopes", "files:write,domains:read,domains:write"])).secret;
  const auth = { authorization: `Bearer ${key}` };

  const servers = [];
  for (let i = 0; i < replicas; i++) {
    const server = await startServe(envOf(`replica-${i}`));
    running.add(server);
    servers.push(server);
  }
  const urls = servers.map((s) => s.url);
  const created = await fetch(`${urls[0]}/v1/domains`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ domain: "handbooks", display_name: "Handbooks" }),
  });
  if (created.status !== 201) throw new Error(`POST /v1/domains: ${created.status} ${await created.text()}`);

  let points = 0;
  let failures = 0;
  const t0 = performance.now();
  await pool(files, 4, async (i) => {
    const form = new FormData();
    form.append("domain", "handbooks");
    form.append("file", new Blob([handbook]), `handbook-${i}.docx`);
    const r = await fetch(`${urls[i % urls.length]}/v1/files`, { method: "POST", headers: auth, body: form });
    const body = await r.json();
    if (r.status === 201) points += body.points_created;
    else failures++;
  });
  const ingestSeconds = (performance.now() - t0) / 1000;

  const search = await measure(requests, 8, (i) =>
    fetch(`${urls[i % urls.length]}/v1/search`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ query: questions[i % questions.length], domain: "handbooks", top_k: 5 }),
    }),
  );
  for (const server of servers) {
    await server.stop();
    running.delete(server);
  }
  return { replicas, points, failures, ingestSeconds, pointsPerSecond: points / ingestSeconds, search };
}

try {
  if (values.only !== "workers") {
    console.log(
      `bench:replicas: PostgreSQL + S3-compatible stand-in + N serve replicas on 127.0.0.1, hash embedder; ` +
        `${files} /v1 uploads (4 clients), ${requests} /v1 searches (8 clients), round-robin across replicas`,
    );
    const rows = [];
    for (const n of REPLICA_COUNTS) rows.push(await deployment(n));
    console.log("replicas | /v1 ingestion points/s | points | failed uploads | /v1/search p50 ms | p99 ms | req/s | failed searches");
    for (const r of rows) {
      console.log(
        `${r.replicas} | ${r.pointsPerSecond.toFixed(1)} | ${r.points} in ${r.ingestSeconds.toFixed(2)} s | ${r.failures} | ` +
          `${r.search.p50.toFixed(1)} | ${r.search.p99.toFixed(1)} | ${r.search.rps.toFixed(1)} | ${r.search.failures}`,
      );
    }
    const [one, two] = rows;
    console.log(
      `2 replicas / 1 replica: ingestion ${(two.pointsPerSecond / one.pointsPerSecond).toFixed(2)}x, search p50 ${(two.search.p50 / one.search.p50).toFixed(2)}x`,
    );
  }

  const run = { postgres, root, running };
  const trials = await killTrials(run, kills);
  console.log(
    `kill -9 trials (serve --no-jobs + 2 workers, 2 s leases; the worker holding each job's lease SIGKILLed, a replacement started): ` +
      `${trials.count} trials, ${trials.takenOver} taken over (completed, strategies stored), ${trials.failed} marked failed, ` +
      `${trials.lost} lost, ${trials.notKilled} ended before the kill`,
  );
  for (const line of trials.failures) console.log(`  ${line}`);
  // `hash` (cheap, so the stores and chunking show), and the default local `use` model with one
  // embedding thread per worker (CHUNKEVAL_EMBEDDER_WORKERS=1, a core per worker as on separate
  // machines) and at its default of a thread per core (one worker can then use every core).
  const setups = [
    { embedder: "hash", paragraphs: 300, note: "hash embedder" },
    { embedder: "use", paragraphs: 60, embedderWorkers: 1, note: "use embedder, 1 embedding thread per worker" },
    { embedder: "use", paragraphs: 60, note: "use embedder, default embedding threads (one per core)" },
  ];
  for (const setup of setups) {
    const walls = [];
    for (const n of [1, 2]) walls.push(await collectionWallTime(run, n, collectionDocuments, setup));
    console.log(
      `collection benchmark (background job, ${collectionDocuments} generated documents of ${setup.paragraphs} paragraphs, ` +
        `${walls[0].questions} questions, 4 strategies, ${setup.note}; ${walls[0].units} (document, variant) units):`,
    );
    for (const w of walls) {
      console.log(
        `  ${w.workers} worker(s): ${w.seconds.toFixed(2)} s (processing ${w.processingSeconds.toFixed(2)} s, questions ${w.questionSeconds.toFixed(2)} s); ` +
          `units per process ${Object.values(w.unitsByProcess).join("+")}; worker CPU ${w.workerCpuSeconds.map((c) => c.toFixed(1)).join("+")} s; ` +
          `machine busy ${w.machineBusyCores.toFixed(2)} of 2 cores`,
      );
    }
    console.log(`  2 workers / 1 worker: ${(walls[1].seconds / walls[0].seconds).toFixed(2)}x wall time (target <= 0.65x)`);
  }
} finally {
  clearTimeout(limit);
  await stopAll();
}
