import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

test("questions generate offline: labelled template questions that bench takes as is", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-questions-cli-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const out = join(dir, "generated.json");
    const generated = await runCli(["questions", "generate", HANDBOOK_PATH, "--count", "5", "--out", out], env);
    assert.equal(generated.code, 0, generated.stderr);
    assert.match(generated.stdout, /NOTE: Template questions built without a language model/);
    assert.match(generated.stdout, /generator: template; kept 5 of 5 requested/);
    const file = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(file.metadata.kind, "template");
    assert.equal(file.questions.length, 5);

    const bench = await runCli(["bench", HANDBOOK_PATH, "--questions", out, "-s", "fixed_size", "--dry-run", "--json"], env);
    assert.equal(bench.code, 0, bench.stderr);
    assert.equal(JSON.parse(bench.stdout).questions_count, 5);

    const bad = await runCli(["questions", "generate", HANDBOOK_PATH, "--count", "0", "--out", join(dir, "x.json")], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /count must be a whole number from 1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
