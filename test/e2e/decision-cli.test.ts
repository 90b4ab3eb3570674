import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";

test("bench prints a warning for chunkings it cannot tell apart, and how many questions would tell the strategies apart", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-decision-cli-"));
  try {
    const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
    writeFileSync(join(dir, "ferry.txt"), "The ferry leaves at seven. It returns at noon. Tickets cost four euros.\n");
    writeFileSync(join(dir, "q.json"), JSON.stringify([{ question: "When does the ferry leave?", references: [{ text: "The ferry leaves at seven." }] }]));
    const run = await runCli(["bench", join(dir, "ferry.txt"), "--questions", join(dir, "q.json"), "-s", "recursive,fixed_size"], env);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split("\n");
    assert.ok(
      lines.includes(
        "warning: recursive and fixed_size made identical chunks (same spans and embedded text in every document): " +
          "the comparison cannot tell their chunking apart.",
      ),
      run.stdout,
    );
    assert.ok(
      lines.some((l) => l.startsWith("warning: ferry.txt is shorter than one chunk of recursive and fixed_size")),
      run.stdout,
    );
    assert.match(run.stdout, /verdict: .*; no realistic number of questions would tell it from recursive \(at 95 % with 80 % power/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
