/**
 * Two `chunkeval serve` replicas on one PostgreSQL and one vector store behave as one service
 * (issue 24, item 3): each replica has a data directory of its own, so nothing reaches the other
 * through the local disk but what the configuration names. Run once with the vectors at a shared
 * local path and once on an S3-compatible server.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handbookBytes } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";
import { spawnServe, type ServeProcess } from "../helpers/serve-process.js";
import { startPostgres, type PostgresServer } from "../helpers/postgres.js";
import { startS3Server, type S3Server } from "../helpers/s3-server.js";
import pg from "pg";

const QUESTION = "What number should I call to report a power cut?";
const QUESTIONS_FILE = "questions/harbor-light-handbook.json";

let postgres: PostgresServer;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres.stop();
});

interface Response {
  status: number;
  body: any;
}

async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const r = await fetch(url + path, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

async function upload(url: string, path: string, fields: Record<string, string>, filename: string, headers: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([handbookBytes()]), filename);
  const r = await fetch(url + path, { method: "POST", body: form, headers });
  return { status: r.status, body: await r.json() };
}

/** Rows of one query on the shared PostgreSQL database, read directly (what is stored, not what a replica says). */
async function pgQuery(uri: string, sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: uri });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Polls until `check` holds (a replica reading an object store may see another's write up to a few
 * seconds late; 60 s leaves room for a machine busy with the other test lanes, where 20 s was
 * once not enough on the S3 stand-in).
 */
/** Waits until `check` holds; a check may return what it saw instead of false, for the failure to say. */
async function eventually(what: string, check: () => Promise<boolean | string>, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  for (let seen = await check(); seen !== true; seen = await check()) {
    if (Date.now() > deadline) assert.fail(`not within ${timeoutMs} ms: ${what}${typeof seen === "string" ? ` (last seen: ${seen})` : ""}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // In the log a slow run keeps (test-artifacts/slow-files/): which wait took the time.
  if (Date.now() - started > 5000) console.log(`# ${what}: ${Date.now() - started} ms`);
}

/** A replica's own folder: its data directory and its questions directory, shared with nobody. */
function replicaEnv(root: string, name: string, shared: Record<string, string>): Record<string, string> {
  const dir = join(root, name);
  mkdirSync(join(dir, "questions"), { recursive: true });
  copyFileSync(QUESTIONS_FILE, join(dir, "questions", "h.json"));
  return { ...shared, CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_QUESTIONS_DIR: join(dir, "questions") };
}

async function replicasBehaveAsOne(vectorStore: "local" | "s3"): Promise<void> {
  // Each phase's time, printed (the runner keeps a slow run's output in test-artifacts/slow-files/):
  // this file once took 220 s instead of 40 with no poll of eventually() over 5 s.
  const started = Date.now();
  let last = started;
  const phase = (name: string) => {
    console.log(`# ${vectorStore}: ${name} after ${((Date.now() - last) / 1000).toFixed(1)} s (${((Date.now() - started) / 1000).toFixed(1)} s in all)`);
    last = Date.now();
  };
  const root = mkdtempSync(join(tmpdir(), `chunkeval-replicas-${vectorStore}-`));
  const s3: S3Server | undefined = vectorStore === "s3" ? await startS3Server() : undefined;
  const shared: Record<string, string> = {
    CHUNKEVAL_METADATA_STORE_URI: await postgres.createDatabase(),
    CHUNKEVAL_VECTOR_STORE_URI: s3 ? `s3://${s3.bucket}/lancedb` : join(root, "vectors"),
    CHUNKEVAL_EMBEDDER: "hash",
    ...(s3?.env ?? {}),
  };
  const replicas: ServeProcess[] = [];
  try {
    const admin = replicaEnv(root, "admin", shared);
    assert.equal((await runCli(["tenants", "create", "acme"], admin)).code, 0);
    const created = await runCli(["keys", "create", "--tenant", "acme", "--scopes", "files:write,domains:write,domains:read,points:read"], admin);
    assert.equal(created.code, 0, created.stderr);
    const auth = { authorization: `Bearer ${created.stdout.trim().split("\n").at(-1)!}` };

    phase("set up");
    replicas.push(await spawnServe(replicaEnv(root, "a", shared)), await spawnServe(replicaEnv(root, "b", shared)));
    const [a, b] = replicas.map((r) => r.url) as [string, string];
    for (const url of [a, b]) assert.equal((await call(url, "GET", "/readyz")).status, 200);

    phase("replicas started");
    // /v1: concurrent uploads of one file name through both replicas get distinct versions, one live.
    assert.equal((await call(a, "POST", "/v1/domains", { domain: "handbooks", display_name: "Handbooks" }, auth)).status, 201);
    const send = (url: string) => upload(url, "/v1/files", { domain: "handbooks" }, "handbook.docx", auth);
    // The S3 stand-in has no conditional writes, so two processes committing to one LanceDB table
    // at once can clash there (docs/deployment.md "Scale and deployment": real S3 has them); the versions are
    // still allocated by both replicas, one upload after another.
    const uploads = s3 ? [await send(a), await send(b), await send(a), await send(b)] : await Promise.all([a, b, a, b].map(send));
    for (const u of uploads) assert.equal(u.status, 201, `${JSON.stringify(u.body)}\n${replicas.map((r) => r.stderr()).join("\n")}`);
    const versions = uploads.map((u) => u.body.version as number).sort((x, y) => x - y);
    assert.deepEqual(versions, [1, 2, 3, 4], "each upload its own version");
    const newest = uploads.find((u) => u.body.version === 4)!.body;
    for (const url of [a, b]) {
      await eventually(`${url} lists only version 4's points`, async () => {
        const points = await call(url, "GET", "/v1/points?domain=handbooks&limit=100", undefined, auth);
        const live = new Set(points.body.items.map((p: any) => `${p.source_file_id}@${p.version}`));
        const ok = points.status === 200 && points.body.total === newest.chunks_indexed && live.size === 1 && live.has(`${newest.file_id}@4`);
        return (
          ok || `status ${points.status}, ${points.body.total} points of ${[...live].join(", ")}; version 4 is ${newest.file_id} with ${newest.chunks_indexed}`
        );
      });
      await eventually(`${url} searches version 4 only`, async () => {
        const found = await call(url, "POST", "/v1/search", { query: QUESTION, domain: "handbooks", top_k: 5 }, auth);
        return found.status === 200 && found.body.items.length > 0 && found.body.items.every((p: any) => p.version === 4);
      });
    }

    phase("/v1 uploads seen by both");
    // Evaluation API: uploaded through A, processed through B, asked through A, benchmarked through B.
    const uploaded = await upload(a, "/documents", {}, "handbook.docx");
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    const id = uploaded.body.id as string;
    const processed = await call(b, "POST", `/documents/${id}/process`, { strategies: ["recursive", "fixed_size"] });
    assert.deepEqual([processed.status, processed.body.strategies_failed], [200, []], JSON.stringify(processed.body));
    await eventually("A answers from the chunks B processed", async () => {
      const asked = await call(a, "POST", "/queries", { document_id: id, strategy: "recursive", question: QUESTION });
      return asked.status === 201 && asked.body.retrieved_chunks.length > 0;
    });
    const bench = await call(b, "POST", "/benchmarks", { document_id: id, strategies: ["recursive", "fixed_size"], questions_file: "h.json" });
    assert.equal(bench.status, 201, JSON.stringify(bench.body));
    const experiment = await call(a, "GET", `/benchmarks/${bench.body.experiment_id}`);
    assert.equal(experiment.status, 200, "A sees the experiment B ran");

    phase("processed and benchmarked");
    // The originals are in the shared store (PostgreSQL), not on the disk of the replica that received them.
    const originals = async (kind: string) =>
      (await pgQuery(shared.CHUNKEVAL_METADATA_STORE_URI!, `SELECT location FROM originals WHERE location LIKE $1`, [`postgres:originals/${kind}/%`])).map(
        (r) => r.location as string,
      );
    assert.deepEqual(await originals("files"), [`postgres:originals/files/${id}.docx`], "the document's original, once");
    assert.equal((await originals("objects")).length, 4, "one original per /v1 version");
    for (const name of ["a", "b"]) for (const kind of ["files", "objects"]) assert.equal(existsSync(join(root, name, "data", kind)), false);
    // The same bytes through B are the same document: stored once.
    const same = await upload(b, "/documents", {}, "handbook.docx");
    assert.deepEqual([same.status, same.body.id], [200, id]);

    // Deleting through B removes the document for A too, and its original for both.
    assert.equal((await call(b, "DELETE", `/documents/${id}`)).status, 200);
    assert.deepEqual(await originals("files"), [], "the original is gone for every replica");
    assert.equal((await call(a, "GET", `/documents/${id}`)).status, 404);
    assert.equal((await call(a, "POST", "/queries", { document_id: id, strategy: "recursive", question: QUESTION })).status, 404);
    assert.equal((await call(a, "DELETE", `/documents/${id}`)).status, 404);

    phase("originals and delete");
    // /readyz tells the truth about the shared stores: both say why while one is gone, both recover.
    const outages: Array<{ store: { pause(): Promise<void>; resume(): Promise<void> }; reason: RegExp }> = [
      { store: postgres, reason: /^metadata store unreachable: / },
    ];
    if (s3) outages.push({ store: s3, reason: /^vector store unreachable: / });
    for (const { store, reason } of outages) {
      await store.pause();
      try {
        for (const url of [a, b]) {
          await eventually(`${url} not ready`, async () => (await call(url, "GET", "/readyz")).status === 503);
          const down = await call(url, "GET", "/readyz");
          assert.equal(down.body.status, "not_ready");
          assert.match(down.body.reason, reason);
        }
      } finally {
        await store.resume();
      }
      for (const url of [a, b]) await eventually(`${url} ready again`, async () => (await call(url, "GET", "/readyz")).status === 200);
    }
    phase("outages");
    const again = await call(b, "POST", "/v1/search", { query: QUESTION, domain: "handbooks", top_k: 3 }, auth);
    assert.equal(again.status, 200, "B serves again after the outages");

    for (const r of replicas) r.child.kill("SIGTERM");
    for (const r of replicas) assert.equal(await r.exited, 0, r.stderr());

    phase("replicas stopped");
    const doctor = await runCli(["doctor", "--json"], admin);
    const report = JSON.parse(doctor.stdout);
    assert.deepEqual([doctor.code, report.consistent, report.findings], [0, true, []], doctor.stdout);
    phase("doctor");
  } finally {
    for (const r of replicas) r.child.kill("SIGKILL");
    await s3?.close();
    rmSync(root, { recursive: true, force: true });
  }
}

test("two serve replicas on one PostgreSQL and a shared local vector store behave as one service", () => replicasBehaveAsOne("local"));

test("two serve replicas on one PostgreSQL and an S3-compatible vector store behave as one service", () => replicasBehaveAsOne("s3"));
