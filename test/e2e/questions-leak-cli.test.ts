import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

test("questions generate --max-leak / --keep-leaky: each leak in the file, flagged or left out, counts printed; a bad threshold: exit 2", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-questions-leak-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const flaggedOut = join(dir, "flagged.json");
    const flagged = await runCli(["questions", "generate", HANDBOOK_PATH, "--count", "16", "--max-leak", "0.5", "--keep-leaky", "--out", flaggedOut], env);
    assert.equal(flagged.code, 0, flagged.stderr);
    const file = JSON.parse(readFileSync(flaggedOut, "utf8"));
    const copying = file.questions.filter((q: { leak: number }) => q.leak >= 0.5);
    assert.ok(copying.length > 0 && copying.every((q: { flag?: string }) => q.flag === "copies its excerpt"));
    assert.equal(file.metadata.leak.threshold, 0.5);
    assert.match(
      flagged.stdout,
      new RegExp(`copied wording: template questions copy their topic words by construction; ≥ 50 %: ${copying.length} kept, flagged`),
    );

    const droppedOut = join(dir, "dropped.json");
    const dropped = await runCli(["questions", "generate", HANDBOOK_PATH, "--count", "16", "--max-leak", "0.5", "--out", droppedOut], env);
    assert.equal(dropped.code, 0, dropped.stderr);
    assert.match(dropped.stdout, new RegExp(`≥ 50 %: ${copying.length} left out for other sections`));
    assert.equal(JSON.parse(readFileSync(droppedOut, "utf8")).questions.length, 16 - copying.length);

    const bench = await runCli(["bench", HANDBOOK_PATH, "--questions", flaggedOut, "-s", "fixed_size", "--dry-run", "--json"], env);
    assert.equal(bench.code, 0, bench.stderr);

    const bad = await runCli(["questions", "generate", HANDBOOK_PATH, "--max-leak", "0", "--out", join(dir, "x.json")], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-leak must be a number in \(0, 1\]/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
