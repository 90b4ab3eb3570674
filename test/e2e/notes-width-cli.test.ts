import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";

test("notes and errors on stderr wrap at the width (COLUMNS), words whole; with room they stay one line", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-notes-"));
  try {
    const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
    const args = ["bench", "a-document-that-is-nowhere-to-be-found.docx", "--questions", "questions/harbor-light-handbook.json"];
    const narrow = await runCli(args, { ...env, COLUMNS: "40" });
    const wide = await runCli(args, { ...env, COLUMNS: "400" });
    assert.equal(narrow.code, 3, narrow.stderr);
    assert.equal(wide.code, 3, wide.stderr);
    const wideLines = wide.stderr.trimEnd().split("\n");
    assert.ok(
      wideLines.some((l) => l.length > 40),
      "the message is longer than the narrow width",
    );
    const narrowLines = narrow.stderr.trimEnd().split("\n");
    assert.ok(narrowLines.length > wideLines.length, narrow.stderr);
    for (const line of narrowLines) assert.ok(line.length <= 40 || !line.trim().includes(" "), `a line over 40 columns: ${line}`);
    assert.equal(narrowLines.map((l) => l.trim()).join(" "), wideLines.join(" "), "the same words, only wrapped");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
