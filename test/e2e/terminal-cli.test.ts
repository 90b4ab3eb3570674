import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeChunkeval } from "../../src/chunkeval.js";
import { loadConfig } from "../../src/config/load.js";
import { displayWidth } from "../../src/transports/cli/layout.js";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

const CORPUS = "examples/corpus";
const STRATEGIES = "recursive,fixed_size,semantic_parent_child,contextual_retrieval";
const widest = (text: string) => Math.max(0, ...text.split("\n").map(displayWidth));

/** A failed background job with a long error, written by a job runner over the same data directory (as `serve` would). */
async function addFailedJob(dataDir: string): Promise<string> {
  const { app } = await composeChunkeval(loadConfig({ env: {}, flags: { data_dir: dataDir, embedder: "hash" } }).config);
  const runner = await app.createJobRunner();
  try {
    const job = await runner.enqueue("bench", {}, async () => {
      throw new Error("the questions file names tidewater-quay-lease.pdf, which is not in collection files-0000: add it or fix the reference");
    });
    while (["pending", "running"].includes((await app.getJob(job.jobId)).status)) await new Promise((r) => setTimeout(r, 20));
    return job.jobId;
  } finally {
    await runner.shutdown();
    await app.close();
  }
}

test("tables and notes fit the width (40-100 columns): the scorecard, documents, experiments, jobs, collections", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-terminal-"));
  const dataDir = join(dir, "data");
  const env = { CHUNKEVAL_DATA_DIR: dataDir, CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, JSON.stringify(JSON.parse(readFileSync("questions/corpus.json", "utf8")).slice(0, 8)));
    const files = readdirSync(CORPUS).map((f) => join(CORPUS, f));
    // Several files make a collection, and bench says so instead of printing its help.
    const first = await runCli(["bench", ...files, "--questions", questions, "-s", STRATEGIES, "--json"], env);
    assert.equal(first.code, 0, first.stderr);
    const collection = JSON.parse(first.stdout).collection.name as string;
    assert.match(
      first.stderr,
      new RegExp(
        `^chunkeval: 5 documents benchmarked together as collection ${collection} \\(every question searches all of them; --collection NAME names it\\)$`,
        "m",
      ),
    );
    const jobId = await addFailedJob(dataDir);
    const ids = JSON.parse((await runCli(["documents", "--json"], env)).stdout).items.map((d: { id: string }) => d.id) as string[];
    const experimentIds = JSON.parse((await runCli(["experiments", "--json"], env)).stdout).items.map((e: { id: string }) => e.id) as string[];
    // A cell whole on one line (an id can be pasted): in a table, or at 40 columns as a record's "header: value".
    const whole = (cell: string, header: string) => new RegExp(`(│ |^ *${header}: |^ {4})${cell}( +│|$)`, "m");

    const views: Array<[string, string[]]> = [
      ["scorecard", ["bench", "--collection", collection, "--questions", questions, "-s", STRATEGIES, "--baseline", JSON.parse(first.stdout).experiment_id]],
      ["documents", ["documents"]],
      ["experiments", ["experiments"]],
      ["jobs", ["jobs", "list"]],
      ["collections", ["collections", "list"]],
      ["collection", ["collections", "show", collection]],
    ];
    for (const [name, args] of views) {
      const wide = await runCli(args, { ...env, COLUMNS: "1000" });
      assert.equal(wide.code, 0, wide.stderr);
      for (const width of [40, 80, 100]) {
        const r = await runCli(args, { ...env, COLUMNS: String(width) });
        assert.equal(r.code, 0, r.stderr);
        assert.ok(widest(r.stdout) <= width, `${name} at ${width} columns has a line of ${widest(r.stdout)}:\n${r.stdout}`);
        if (name === "scorecard") {
          assert.ok(widest(wide.stdout) > 100, `the scorecard is wider than 100 columns when it may be (${widest(wide.stdout)})`);
          for (const s of STRATEGIES.split(",")) assert.match(r.stdout, whole(`${s}( \\*)?`, "strategy"), `${s} at ${width}`);
          const composite = "\\d\\.\\d\\d \\[\\d\\.\\d\\d, \\d\\.\\d\\d\\] \\([+-]\\d\\.\\d\\d\\)";
          assert.match(r.stdout, whole(composite, "composite[^:]*"), "a composite with its interval and change stays on one line");
          assert.match(r.stdout.replace(/\n +/g, " "), /verdict: contextual_retrieval scored highest/);
          // 8 questions cannot separate any two strategies: no line may call one "best" (issue 39).
          assert.match(
            r.stdout.replace(/\n +/g, " "),
            /^No clear winner among contextual_retrieval, .*: 8 questions cannot separate contextual_retrieval from the others at 95 %/m,
          );
          assert.match(r.stdout.replace(/\n +/g, " "), /highest composite: contextual_retrieval \(\*\)/);
          assert.doesNotMatch(r.stdout, /\bbest\b/i, "nothing is called best when there is no clear winner");
          assert.match(r.stdout, /^experiment: exp_[0-9a-f]{16}/m);
        }
        if (name === "documents") for (const id of ids) assert.match(r.stdout, whole(id, "id"), `${id} whole at ${width}`);
        if (name === "experiments") for (const id of experimentIds) assert.match(r.stdout, whole(id, "id"), `${id} whole at ${width}`);
        if (name === "jobs") assert.match(r.stdout, whole(jobId, "job_id"), `${jobId} whole at ${width}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bench refuses bad usage before any work: a misspelt strategy, a report file of no known format", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-terminal-usage-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, JSON.stringify(JSON.parse(readFileSync("questions/harbor-light-handbook.json", "utf8")).slice(0, 2)));
    const misspelt = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "--strategies", "recusive"], env);
    assert.equal(misspelt.code, 2);
    assert.match(misspelt.stderr, /^chunkeval: error: unknown strategy "recusive" \(valid: recursive, fixed_size, semantic, .*, or all\)\n$/);
    const pdf = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "--out", join(dir, "x.pdf")], env);
    assert.equal(pdf.code, 2);
    assert.match(pdf.stderr, /^chunkeval: error: --out .*x\.pdf: a report file must end in \.html, \.md, \.json\n$/);
    assert.equal(JSON.parse((await runCli(["documents", "--json"], env)).stdout).total, 0, "nothing uploaded");

    // report: the format follows the file's name unless --format says otherwise, and then they must agree.
    const stored = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive", "--json", "-q"], env);
    assert.equal(stored.code, 0, stored.stderr);
    const id = JSON.parse(stored.stdout).experiment_id as string;
    const md = join(dir, "r.md");
    assert.equal((await runCli(["report", id, "--out", md], env)).code, 0);
    assert.match(readFileSync(md, "utf8"), /^# chunkeval experiment exp_/);
    const clash = await runCli(["report", id, "--format", "json", "--out", md], env);
    assert.equal(clash.code, 2);
    assert.match(clash.stderr, /--format json does not match --out .*r\.md/);
    assert.equal((await runCli(["report", id, "--out", join(dir, "r.txt")], env)).code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
