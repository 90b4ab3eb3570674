import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startLongRunning, stop, waitFor } from "./long-running.js";
import { testPostgres } from "./postgres.js";
import { startOpenAiStub } from "./openai-server.js";

/**
 * A deployment of a background benchmark over a collection on the PostgreSQL queue, whose
 * (document, variant) processing units are `process_unit` jobs that `chunkeval worker` processes
 * share: test/e2e/benchmark-units.test.ts (leases, killed and stalled workers, serial) and
 * test/e2e/benchmark-units-share.test.ts (sharing and failures, in the parallel lane).
 */

export const STRATEGIES = ["recursive", "fixed_size", "semantic", "structure"];
const WORDS = "amber basalt cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon".split(" ");
const BOUND_MS = 120_000;

/** Paragraphs of sentences unique to `seed` (no cache or deduplication spans two documents). */
export function generated(seed: number, paragraphs: number, extra = ""): string {
  const word = (i: number) => WORDS[(seed * 7 + i * 5) % WORDS.length];
  const text = Array.from({ length: paragraphs }, (_, p) =>
    Array.from({ length: 4 }, (_, s) => `Record ${seed}-${p}-${s} files the ${word(p + s)} ledger under shelf ${seed * 1000 + p * 10 + s}.`).join(" "),
  ).join("\n\n");
  return extra ? `${text}\n\n${extra}` : text;
}

export interface UnitRow {
  id: string;
  status: string;
  attempts: number;
  error: string | null;
  lease_owner: string | null;
  params_json: string;
  result_json: string | null;
}

export interface UnitResult {
  seconds: number;
  embedded: { computed: number; cached: number; computedTokens: number };
  ranBy: string;
}

/** A deployment on a fresh database: `serve --no-jobs` that only queues, and `workers` worker processes. */
export async function deployment(dir: string, name: string, env: NodeJS.ProcessEnv, workers: number, workerArgs: string[] = []) {
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

export type Deployment = Awaited<ReturnType<typeof deployment>>;

export async function ended(d: Deployment, jobId: string) {
  return waitFor(
    "the benchmark to end",
    () => d.job(jobId),
    (j) => j.status === "completed" || j.status === "failed",
    BOUND_MS,
  );
}

/** The stored experiment as the JSON report exports it (metrics and details). */
export async function experimentOf(d: Deployment, jobId: string) {
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
export function deterministic(e: Awaited<ReturnType<typeof experimentOf>>) {
  return {
    indexing: e.details.indexing.map((x) => ({ strategy: x.strategy, chunks: x.chunks, token_sizes: x.token_sizes, reused: x.reused })),
    // Two processes can both embed a text the strategies share where one process would have found it cached: the sum is what cannot move.
    embeddings: e.details.embeddings.computed + e.details.embeddings.cached,
  };
}

/** How many of a strategy's chunks a search of each document finds, summed (each document holds fewer than 100, the most a query returns). */
export async function searchableChunks(d: Deployment, documentIds: string[], strategy: string): Promise<number> {
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
export async function withSlowBenchmark(name: string, body: (d: Deployment, jobId: string, documents: number) => Promise<void>): Promise<void> {
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
