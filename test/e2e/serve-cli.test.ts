import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, mkdirSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, runCli } from "../helpers/cli.js";
import { handbookBytes } from "../helpers/documents.js";

test("chunkeval serve: the URL and where questions_file is read from, jobs from the CLI, graceful shutdown on SIGTERM", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-serve-"));
  mkdirSync(join(dir, "questions"));
  copyFileSync("questions/harbor-light-handbook.json", join(dir, "questions", "h.json"));
  const env = {
    ...process.env,
    CHUNKEVAL_DATA_DIR: join(dir, "data"),
    CHUNKEVAL_EMBEDDER: "hash",
    CHUNKEVAL_EMBEDDER_WORKERS: "0",
    CHUNKEVAL_QUESTIONS_DIR: join(dir, "questions"),
  };
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL line: ${stderr}`)), 15000);
      child.stderr.on("data", () => {
        const m = stderr.match(/chunkeval serving on (http:\/\/127\.0\.0\.1:\d+).*\n.*\n/);
        if (m) (clearTimeout(timer), resolve(m[1]!));
      });
    });
    assert.equal(stderr.split("\n")[1], `questions_file is read from ${join(dir, "questions")}`);
    assert.ok(stderr.split("\n")[0]!.endsWith(`the browser UI: ${url}/ui/)`), stderr);
    assert.equal((await fetch(`${url}/ui/`)).status, 200);
    const form = new FormData();
    form.append("file", new Blob([handbookBytes()]), "handbook.docx");
    const doc = (await (await fetch(`${url}/documents`, { method: "POST", body: form })).json()) as { id: string };
    const job = (await (
      await fetch(`${url}/documents/${doc.id}/process?background=true`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ strategies: ["recursive"] }),
      })
    ).json()) as { job_id: string };

    const waited = await runCli(["jobs", "wait", job.job_id, "--server", url, "--interval", "50"], env);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stdout, new RegExp(`${job.job_id}: completed`));
    const listed = JSON.parse((await runCli(["jobs", "list", "--server", url, "--json"], env)).stdout);
    assert.equal(listed.items[0].job_id, job.job_id);
    const local = JSON.parse((await runCli(["jobs", "list", "--status", "completed", "--json"], env)).stdout);
    assert.equal(local.total, 1, "the CLI reads the same job table");
    const table = await runCli(["jobs", "list", "--server", url], env);
    assert.match(table.stdout, /job_id.*type.*about.*status/);
    assert.match(table.stdout, new RegExp(`${job.job_id} .*process .*handbook\\.docx \\(${doc.id}\\) .*completed`), "the row names the document");
    const shown = JSON.parse((await runCli(["jobs", "show", job.job_id, "--json"], env)).stdout);
    assert.equal(shown.result.document_id, doc.id);
    const missing = await runCli(["jobs", "show", "job_nope", "--server", url], env);
    assert.equal(missing.code, 3);

    // A synchronous benchmark in flight when SIGTERM arrives still gets its answer.
    const inFlight = fetch(`${url}/benchmarks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ document_id: doc.id, strategies: ["recursive", "fixed_size"], questions_file: "h.json" }),
    });
    await new Promise((r) => setTimeout(r, 150));
    child.kill("SIGTERM");
    const response = await inFlight;
    assert.equal(response.status, 201);
    assert.equal(await exited, 0);
    assert.match(stderr, /SIGTERM, shutting down/);
  } finally {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});
