// chunkeval serve's tests that send no signal but to stop it: the parallel lane (test/lanes.mjs).
// Moved from serve-cli.test.ts, which keeps its graceful SIGTERM test in the serial lane.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { handbookBytes } from "../helpers/documents.js";
import { spawnServe } from "../helpers/serve-process.js";

test("chunkeval serve says when the folder questions_file is read from does not exist, and how to set it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-serve-noq-"));
  const missing = join(dir, "no-questions-here");
  const server = await spawnServe({ CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_QUESTIONS_DIR: missing });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no questions line: ${server.stderr()}`)), 15000);
      const look = () => {
        const m = server.stderr().match(/^questions_file .*$/m);
        if (m) (clearTimeout(timer), resolve(m[0]));
      };
      server.child.stderr!.on("data", look);
      look();
    });
    assert.equal(
      line,
      `questions_file is read from ${missing}, which does not exist: create it, set questions_dir (CHUNKEVAL_QUESTIONS_DIR), or send questions inline`,
    );
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { details: unknown };
    assert.deepEqual(ready.details, { questions_dir: missing, questions_dir_exists: false });
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
});

test("jobs list|show|wait --server send CHUNKEVAL_API_KEY to a server that requires it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-serve-key-"));
  const key = "local-secret-key-123";
  const env = { ...process.env, CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_EMBEDDER_WORKERS: "0", CHUNKEVAL_API_KEY: key };
  const server = await spawnServe(env);
  try {
    const auth = { authorization: `Bearer ${key}` };
    const form = new FormData();
    form.append("file", new Blob([handbookBytes()]), "handbook.docx");
    const doc = (await (await fetch(`${server.url}/documents`, { method: "POST", body: form, headers: auth })).json()) as { id: string };
    const enqueued = await fetch(`${server.url}/documents/${doc.id}/process?background=true`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ strategies: ["recursive"] }),
    });
    const job = (await enqueued.json()) as { job_id: string };

    const waited = await runCli(["jobs", "wait", job.job_id, "--server", server.url, "--interval", "50"], env);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stdout, new RegExp(`${job.job_id}: completed`));
    const shown = JSON.parse((await runCli(["jobs", "show", job.job_id, "--server", server.url, "--json"], env)).stdout);
    assert.equal(shown.status, "completed");
    const listed = await runCli(["jobs", "list", "--server", server.url, "--json"], env);
    assert.equal(JSON.parse(listed.stdout).items[0].job_id, job.job_id);

    const { CHUNKEVAL_API_KEY: _key, ...withoutKey } = env;
    const refused = await runCli(["jobs", "list", "--server", server.url], withoutKey);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /refused the request.*set CHUNKEVAL_API_KEY/);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
});
