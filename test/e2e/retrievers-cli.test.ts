// Issue 36 item 4: `bench --retrievers` runs the same chunks under each search mode; the scorecard
// and the reports add a strategy × retriever table, and a verdict note says whether the winner
// holds under each retriever. An unknown retriever is bad usage.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";

const HANDBOOK = "examples/harbor-light-handbook.docx";
const QUESTIONS = "questions/harbor-light-handbook.json";

test("bench --retrievers dense,keyword,hybrid: one table of strategy × retriever, and whether the winner holds under each", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-retrievers-cli-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const html = join(dir, "report.html");
    const md = join(dir, "report.md");
    const args = ["bench", HANDBOOK, "--questions", QUESTIONS, "-s", "recursive,structure", "--retrievers", "dense,keyword,hybrid", "--dry-run", "--yes"];
    const bench = await runCli([...args, "--out", html], env);
    assert.equal(bench.code, 0, bench.stderr);
    // Six variants: each strategy under each mode, keyword (the hash embedder's default) under the plain name.
    for (const key of ["recursive@retrieval=dense", "recursive@retrieval=hybrid", "structure@retrieval=dense", "structure@retrieval=hybrid"])
      assert.ok(bench.stdout.includes(key), key);
    const table = bench.stdout.slice(bench.stdout.indexOf("strategy × retriever, composite"));
    assert.match(table, /│ strategy\s+│ dense\s+│ keyword\s+│ hybrid\s+│/);
    assert.match(table, /│ recursive\s+│ \d+\.\d\d( \*)?\s+│ \d+\.\d\d( \*)?\s+│ \d+\.\d\d( \*)?\s+│/);
    assert.equal((table.slice(0, table.indexOf("└")).match(/ \* /g) ?? []).length >= 3, true, "each retriever's highest is marked");
    const note = /(The chunking verdict holds across retrievers: \w+ wins under each of dense, keyword and hybrid|Across retrievers [^\n]+)/.exec(bench.stdout);
    assert.ok(note, bench.stdout);
    assert.match(readFileSync(html, "utf8"), /<h2>Strategy × retriever<\/h2>/);

    const json = await runCli([...args, "--json"], env);
    assert.equal(json.code, 0, json.stderr);
    const experiment = JSON.parse(json.stdout);
    assert.ok(
      experiment.verdict_notes.some((n: string) => /across retrievers/i.test(n)),
      JSON.stringify(experiment.verdict_notes),
    );
    const report = await runCli(["report", experiment.experiment_id, "--format", "md", "--out", md], env);
    assert.equal(report.code, 0, report.stderr);
    assert.match(
      readFileSync(md, "utf8"),
      /### Strategy × retriever \(composite; ★ the highest under that retriever\)\n\n\| strategy \| dense \| keyword \| hybrid \|/,
    );

    const bad = await runCli(["bench", HANDBOOK, "--questions", QUESTIONS, "-s", "recursive", "--retrievers", "dense,bm25", "--dry-run"], env);
    assert.equal(bad.code, 2, bad.stdout);
    assert.match(bad.stderr, /--retrievers takes dense, keyword, hybrid \(comma-separated\), not "bm25"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bench --embedders: each strategy with each embedder, a strategy × embedder table, and whether the winner holds with each", async () => {
  const { startOpenAiStub } = await import("../helpers/openai-server.js");
  const stub = await startOpenAiStub();
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-embedders-cli-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" };
  try {
    const html = join(dir, "report.html");
    const args = ["bench", HANDBOOK, "--questions", QUESTIONS, "-s", "recursive,structure", "--embedders", "hash,openai:stub", "--retrievers", "dense"];
    const bench = await runCli([...args, "--dry-run", "--yes", "--out", html], env);
    assert.equal(bench.code, 0, bench.stderr);
    for (const key of [
      "recursive@embedder=hash:retrieval=dense",
      "recursive@embedder=openai:stub:retrieval=dense",
      "structure@embedder=openai:stub:retrieval=dense",
    ])
      assert.ok(bench.stdout.includes(key), key);
    const table = bench.stdout.slice(bench.stdout.indexOf("strategy × embedder, composite (* the highest with that embedder)"));
    assert.match(table, /│ strategy\s+│ hash\s+│ openai:stub\s+│/);
    assert.match(table, /│ recursive@retrieval=dense\s+│ \d+\.\d\d( \*)?\s+│ \d+\.\d\d( \*)?\s+│/);
    assert.match(bench.stdout, /(The chunking verdict holds across embedders: [^\n]+ wins with each of hash and openai:stub|Across embedders [^\n]+)/);
    assert.doesNotMatch(bench.stdout, /made identical chunks/, "one chunking embedded twice is not a degenerate comparison");
    assert.match(readFileSync(html, "utf8"), /<h2>Strategy × embedder<\/h2>/);
    // The grid is estimated before it runs, like any sweep.
    assert.match(bench.stderr, /4 variants/);
    const bad = await runCli(["bench", HANDBOOK, "--questions", QUESTIONS, "-s", "recursive", "--embedders", "hash,nope", "--dry-run", "--yes"], env);
    assert.equal(bad.code, 2, bad.stdout);
    assert.match(bad.stderr, /strategy variant "recursive@embedder=nope": embedder "nope": unknown embedder "nope" \(valid: use, hash, hf, openai\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stub.close();
  }
});
