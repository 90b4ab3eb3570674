import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";
import { spawnServe } from "../helpers/serve-process.js";
import { startOpenAiStub } from "../helpers/openai-server.js";

test("a CLI delete stops a serve process's job on that document within seconds, failed with the reason", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-xdelete-"));
  // Slow embeddings keep the job busy for far longer than the test waits (about 25 s of calls).
  const stub = await startOpenAiStub({ delayMs: 500 });
  const env = {
    CHUNKEVAL_DATA_DIR: join(dir, "data"),
    CHUNKEVAL_EMBEDDER: "openai:text-embedding-3-small",
    CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl,
    CHUNKEVAL_OPENAI_API_KEY: "k",
    CHUNKEVAL_EMBED_BATCH_SIZE: "4",
  };
  const server = await spawnServe(env);
  try {
    const uploaded = await runCli(["upload", HANDBOOK_PATH, "--json"], env);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    const documentId = JSON.parse(uploaded.stdout).id as string;
    const enqueued = await fetch(`${server.url}/documents/${documentId}/process?background=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ strategies: ["semantic"] }),
    });
    assert.equal(enqueued.status, 202);
    const jobId = ((await enqueued.json()) as { job_id: string }).job_id;
    // Wait until the job is at work (embedding), then delete the document from another process.
    const deadline = Date.now() + 20_000;
    while (stub.requests.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(stub.requests.length >= 2, "the job never started embedding");
    const deleted = await runCli(["delete", documentId], env);
    assert.equal(deleted.code, 0, deleted.stderr + deleted.stdout);
    const deletedAt = Date.now();
    let job: { status: string; error?: string } = { status: "running" };
    while (job.status !== "failed" && job.status !== "completed" && Date.now() - deletedAt < 10_000) {
      await new Promise((r) => setTimeout(r, 200));
      job = (await (await fetch(`${server.url}/jobs/${jobId}`)).json()) as typeof job;
    }
    assert.equal(job.status, "failed", JSON.stringify(job));
    assert.equal(job.error, `cancelled: document harbor-light-handbook.docx (${documentId}) was deleted`);
    const stoppedAfterMs = Date.now() - deletedAt;
    // Cancelled work asks for no more embeddings once the call in flight returns.
    const callsAtStop = stub.requests.length;
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(stub.requests.length <= callsAtStop + 1, `${stub.requests.length - callsAtStop} embedding calls after the job failed`);
    console.log(`# job failed ${stoppedAfterMs} ms after the CLI delete`);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
