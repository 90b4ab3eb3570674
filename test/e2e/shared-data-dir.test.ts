import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH, handbookBytes } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";
import { spawnServe } from "../helpers/serve-process.js";

const QUESTION = "What number should I call to report a power cut?";

test("serve and a CLI loop on one data directory at once: every committed chunk keeps its vector and every vector has a committed chunk", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-shared-"));
  mkdirSync(join(dir, "questions"));
  const questions = join(dir, "questions", "h.json");
  copyFileSync("questions/harbor-light-handbook.json", questions);
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_QUESTIONS_DIR: join(dir, "questions") };
  const server = await spawnServe(env);
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(server.url + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  // A document of its own each time (new=true): the same bytes would otherwise return the shared one.
  const upload = async (query = "") => {
    const form = new FormData();
    form.append("file", new Blob([handbookBytes()]), "handbook.docx");
    return ((await (await fetch(`${server.url}/documents${query}`, { method: "POST", body: form })).json()) as { id: string }).id;
  };
  // The CLI's commands run in this process (each opens the data directory afresh, as a process
  // would), beside the server's process: two processes on one data directory.
  const cli = async (...args: string[]) => {
    const r = await runCli(args, env);
    assert.equal(r.code, 0, `chunkeval ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  try {
    const shared = await upload();
    assert.equal((await call("POST", `/documents/${shared}/process`, { strategies: ["recursive"] })).status, 200);
    const ROUNDS = 3;
    const serverLoop = async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const processed = await call("POST", `/documents/${shared}/process`, { strategies: ["recursive", "semantic"] });
        assert.deepEqual([processed.status, processed.body.strategies_failed], [200, []], JSON.stringify(processed.body));
        const own = await upload("?new=true");
        const job = await call("POST", `/documents/${own}/process?background=true`, { strategies: ["recursive"] });
        assert.equal(job.status, 202);
        for (let polled = await call("GET", `/jobs/${job.body.job_id}`); ; polled = await call("GET", `/jobs/${job.body.job_id}`)) {
          if (polled.body.status === "completed") break;
          assert.notEqual(polled.body.status, "failed", JSON.stringify(polled.body));
          await new Promise((r) => setTimeout(r, 50));
        }
        const asked = await call("POST", "/queries", { document_id: shared, strategy: "recursive", question: QUESTION });
        assert.equal(asked.status, 201, JSON.stringify(asked.body));
        assert.ok(asked.body.retrieved_chunks.length > 0, "the committed strategy still retrieves");
        assert.equal((await call("DELETE", `/documents/${own}`)).status, 200);
        const bench = await call("POST", "/benchmarks", { document_id: shared, strategies: ["fixed_size"], questions_file: "h.json", dry_run: true });
        assert.equal(bench.status, 201, JSON.stringify(bench.body));
      }
    };
    const cliLoop = async () => {
      for (let round = 0; round < ROUNDS; round++) {
        assert.deepEqual(JSON.parse(await cli("process", shared, "--strategies", "fixed_size,contextual_retrieval", "--json")).strategies_failed, []);
        const answer = JSON.parse(await cli("ask", shared, QUESTION, "--strategy", "recursive", "--json"));
        assert.ok(answer.retrieved_chunks.length > 0, "the CLI never finds the server's generation swept");
        const own = JSON.parse(await cli("upload", HANDBOOK_PATH, "--new", "--json")).id as string;
        await cli("process", own, "--strategies", "recursive", "--json");
        await cli("delete", own, "--json");
        await cli("bench", shared, "--questions", questions, "--strategies", "recursive,fixed_size", "--dry-run", "--json");
      }
    };
    await Promise.all([serverLoop(), cliLoop()]);
    server.child.kill("SIGTERM");
    assert.equal(await server.exited, 0);

    const doctor = await runCli(["doctor", "--json"], env);
    const report = JSON.parse(doctor.stdout);
    assert.deepEqual([doctor.code, report.consistent, report.findings], [0, true, []], doctor.stdout);
    assert.ok(report.checked.strategies >= 4 && report.checked.vectors === report.checked.chunks, doctor.stdout);
  } finally {
    server.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});
