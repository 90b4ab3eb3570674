import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

const VALID = /unknown strategy "recusive" \(valid: recursive, fixed_size, semantic, contextual_retrieval, semantic_parent_child, structure/;

test("an unknown strategy is bad usage (exit 2) naming the valid ones, for ask as for process and bench", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-usage-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const doc = JSON.parse((await runCli(["upload", HANDBOOK_PATH, "--json"], env)).stdout).id as string;
    for (const args of [
      ["ask", doc, "What is the price?", "--strategy", "recusive"],
      ["ask", doc, "What is the price?", "--strategy", "recusive@chunk_size=128"],
      ["process", doc, "--strategies", "recursive,recusive"],
    ]) {
      const r = await runCli(args, env);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, VALID);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an unknown option is one error line and a pointer to the command's help, not the help itself", async () => {
  for (const [args, command] of [
    [["bench", "x.docx", "--bogus"], "chunkeval bench"],
    [["questions", "generate", "--bogus"], "chunkeval questions generate"],
    [["--bogus"], "chunkeval"],
  ] as const) {
    const r = await runCli([...args]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, `chunkeval: error: unknown option '--bogus'\n(see ${command} --help)\n`);
    assert.equal(r.stdout, "");
  }
});
