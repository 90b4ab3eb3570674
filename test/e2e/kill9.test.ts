import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeChunkeval } from "../../src/chunkeval.js";
import { loadConfig } from "../../src/config/load.js";
import { INGESTION_INTERRUPTED } from "../../src/services/ingestion/ingestion-recovery.js";
import { RESTART_ERROR } from "../../src/services/jobs/jobs.js";
import { buildDocx, HANDBOOK_PATH, handbookBytes } from "../helpers/documents.js";
import { BIN, runCli, runCliProcess } from "../helpers/cli.js";
import { spawnServe, type ServeProcess } from "../helpers/serve-process.js";
import { liveStoredPoints } from "../helpers/stored-points.js";

/** mulberry32: a small seeded generator, so a failing trial can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.KILL9_SEED ?? 20261122);
const TRIALS = Number(process.env.KILL9_TRIALS ?? 24);
const QUESTION = "What number should I call to report a power cut?";
const OPERATIONS = ["cli process", "cli bench", "cli delete", "server /v1 upload", "server process job"] as const;

test(`kill -9 at random points (${TRIALS} trials, seed ${SEED}) loses nothing committed and leaves a consistent store`, async () => {
  const random = seeded(SEED);
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-kill9-"));
  mkdirSync(join(dir, "questions"));
  const questions = join(dir, "questions", "h.json");
  copyFileSync("questions/harbor-light-handbook.json", questions);
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_QUESTIONS_DIR: join(dir, "questions") };
  const config = loadConfig({
    cwd: dir,
    env: { CHUNKEVAL_EMBEDDER_WORKERS: "0" },
    flags: { data_dir: env.CHUNKEVAL_DATA_DIR, embedder: "hash", questions_dir: env.CHUNKEVAL_QUESTIONS_DIR },
  }).config;
  /**
   * Runs a CLI command and kills it with SIGKILL at a point chosen by `when`: after its
   * `afterLines`-th progress line on stderr (plus `jitterMs`), or at `delayMs` when it prints none.
   */
  const killedAt = (args: string[], when: { afterLines?: number; delayMs?: number; jitterMs: number }) =>
    new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: { ...process.env, CHUNKEVAL_EMBEDDER_WORKERS: "0", ...env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      const kill = () => setTimeout(() => child.kill("SIGKILL"), when.jitterMs);
      let lines = 0;
      child.stderr!.on("data", (d: Buffer) => {
        const before = lines;
        lines += d.toString().split("\n").length - 1;
        if (when.afterLines !== undefined && before < when.afterLines && lines >= when.afterLines) kill();
      });
      const timer = when.delayMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), when.delayMs);
      child.on("exit", () => (clearTimeout(timer), resolve()));
    });
  /** How long a command takes uninterrupted, so kill points can spread over its whole run. */
  const timed = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    return performance.now() - started;
  };
  let server: ServeProcess | undefined;
  try {
    // The set-up runs in this process; the commands killed and the one timed for them are processes.
    const doc = JSON.parse((await runCli(["upload", HANDBOOK_PATH, "--json"], env)).stdout).id as string;
    assert.equal((await runCli(["process", doc, "--strategies", "recursive,fixed_size", "--json"], env)).code, 0);
    assert.equal((await runCli(["tenants", "create", "acme"], env)).code, 0);
    const key = await runCli(["keys", "create", "--tenant", "acme", "--scopes", "files:write,domains:read,domains:write"], env);
    const auth = `Bearer ${key.stdout.trim().split("\n").at(-1)}`;
    server = await spawnServe(env);
    const post = (path: string, body: unknown) =>
      fetch(server!.url + path, { method: "POST", headers: { "content-type": "application/json", authorization: auth }, body: JSON.stringify(body) });
    assert.equal((await post("/v1/domains", { domain: "d", display_name: "D" })).status, 201);
    // A longer document than the handbook, so ingestion and processing give kill points room.
    const bigDoc = await buildDocx(
      Array.from({ length: 300 }, (_, i) =>
        i % 20 === 0
          ? { h: `Section ${i / 20}` }
          : {
              p:
                `Paragraph ${i} of the long document: the harbour light keeps ships away from the rocks, ` +
                "and the keeper records the weather at dawn, noon and dusk.",
            },
      ),
    );
    const uploadForm = () => {
      const form = new FormData();
      form.append("domain", "d");
      form.append("file", new Blob([bigDoc]), "calibration.docx");
      return form;
    };
    const uploadMs = await timed(() => fetch(`${server!.url}/v1/files`, { method: "POST", body: uploadForm(), headers: { authorization: auth } }));
    const spare = JSON.parse((await runCliProcess(["upload", HANDBOOK_PATH, "--new", "--json"], env)).stdout).id as string;
    const deleteMs = await timed(() => runCliProcess(["delete", spare], env));
    const counts: Record<string, number> = {};
    let abandoned = 0;

    for (let trial = 0; trial < TRIALS; trial++) {
      // Every operation in turn, so each gets its share of trials; where the kill lands is random.
      const operation = OPERATIONS[trial % OPERATIONS.length]!;
      counts[operation] = (counts[operation] ?? 0) + 1;
      const label = `trial ${trial} (${operation}, seed ${SEED})`;

      // What is committed before the kill must still answer after it.
      let { app, internals } = await composeChunkeval(config);
      let victim: string | undefined;
      if (operation === "cli delete") {
        victim = (await app.upload({ filename: `victim-${trial}.docx`, bytes: handbookBytes() }, { forceNew: true })).id;
        await app.process(victim, ["recursive"]);
      }
      const committed = (await internals.context.chunks.currentGenerations()).map((g) => ({ documentId: g.documentId, strategy: g.strategy }));
      await app.close();
      // Read in LanceDB itself: what search finds, whatever SQLite says.
      const livePoints = () => liveStoredPoints(env.CHUNKEVAL_DATA_DIR);
      // /v1 files live before the kill must stay live after it, with exactly one version.
      const liveBefore = new Set((await livePoints()).map((p) => p.filename));

      const jitterMs = Math.round(random() * 40);
      const afterLines = 1 + Math.floor(random() * 14);
      // --progress json: a line per progress event (lines mode throttles), so kill points spread over the run.
      if (operation === "cli process")
        await killedAt(["--progress", "json", "process", doc, "--strategies", "recursive,fixed_size,semantic,contextual_retrieval"], { afterLines, jitterMs });
      else if (operation === "cli bench")
        await killedAt(["--progress", "json", "bench", doc, "--questions", questions, "--strategies", "recursive,semantic,fixed_size", "--dry-run"], {
          afterLines,
          jitterMs,
        });
      else if (operation === "cli delete") await killedAt(["delete", victim!], { delayMs: Math.round(random() * 1.2 * deleteMs), jitterMs });
      else {
        if (operation === "server /v1 upload") {
          const form = new FormData();
          form.append("domain", "d");
          form.append("file", new Blob([bigDoc]), `file-${trial % 3}.docx`);
          fetch(`${server.url}/v1/files`, { method: "POST", body: form, headers: { authorization: auth } }).catch(() => undefined);
          await new Promise((r) => setTimeout(r, Math.round(random() * 1.2 * uploadMs)));
        } else {
          // Kill when the job reports a randomly chosen stage (or has finished).
          const stages = [
            "semantic: chunking",
            "semantic: indexing",
            "fixed_size: embedding",
            "fixed_size: indexing",
            "contextual_retrieval: chunking",
            "contextual_retrieval: indexing",
          ];
          const target = stages[Math.floor(random() * stages.length)]!;
          const job = (await (
            await post(`/documents/${doc}/process?background=true`, { strategies: ["semantic", "fixed_size", "contextual_retrieval"] })
          ).json()) as { job_id: string };
          for (;;) {
            const polled = (await (await fetch(`${server.url}/jobs/${job.job_id}`)).json()) as { status: string; progress: string | null };
            if (polled.status === "completed" || polled.status === "failed" || polled.progress?.startsWith(target)) break;
            await new Promise((r) => setTimeout(r, 2));
          }
          await new Promise((r) => setTimeout(r, jitterMs));
        }
        server.child.kill("SIGKILL");
        await server.exited;
        server = await spawnServe(env); // the next start
      }

      ({ app, internals } = await composeChunkeval(config));
      try {
        abandoned += (await internals.context.chunks.pendingGenerations()).length; // left by the killed writer, before cleanup runs
        for (const { documentId, strategy } of committed) {
          if (documentId === victim && !(await internals.context.documents.get(documentId))) continue; // deleted before the kill
          const answer = await app.ask({ documentId, strategy, question: QUESTION, store: false });
          assert.ok(answer.retrievedChunks.length > 0, `${label}: ${documentId}/${strategy} no longer answers`);
        }
        const report = await app.doctor();
        assert.deepEqual([report.consistent, report.findings], [true, []], `${label}: ${JSON.stringify(report.findings)}`);
        for (const status of ["pending", "running"])
          assert.equal((await app.listJobs({ status }, { offset: 0, limit: 10 })).total, 0, `${label}: a job stayed ${status}`);
        for (const job of (await app.listJobs({ status: "failed" }, { offset: 0, limit: 100 })).items) assert.equal(job.error, RESTART_ERROR, label);
        const ingestions = await internals.ingestionRepo.jobs();
        assert.ok(
          ingestions.every((j) => j.status === "completed" || (j.status === "failed" && j.error === INGESTION_INTERRUPTED)),
          `${label}: ${JSON.stringify(ingestions)}`,
        );
        const versions = new Map<string, Set<number>>();
        for (const p of await livePoints()) versions.set(p.filename, (versions.get(p.filename) ?? new Set()).add(p.version));
        for (const [name, live] of versions) assert.equal(live.size, 1, `${label}: ${name} has live points of versions ${[...live]}`);
        for (const name of liveBefore) assert.ok(versions.has(name), `${label}: ${name} was live before the kill and has no live point after it`);
      } finally {
        await app.close();
      }
    }
    const { app, internals } = await composeChunkeval(config);
    const failedJobs = (await app.listJobs({ status: "failed" }, { offset: 0, limit: 1 })).total;
    const interrupted = (await internals.ingestionRepo.jobs()).filter((j) => j.status === "failed").length;
    await app.close();
    for (const operation of OPERATIONS) assert.ok((counts[operation] ?? 0) >= 4, `${operation}: ${counts[operation] ?? 0} trials`);
    assert.ok(abandoned + failedJobs + interrupted > 0, "some kills landed while work was under way, not only between operations");
    process.stdout.write(
      `# kill -9 trials: ${TRIALS} (${Object.entries(counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}); killed mid-write: ${abandoned} pending generations, ` +
        `${failedJobs} jobs and ${interrupted} ingestions marked failed at restart; all consistent\n`,
    );
  } finally {
    server?.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});
