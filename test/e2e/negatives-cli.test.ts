import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

test("questions generate --negatives: negative controls in the file, and bench says how often each strategy abstained on them", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-negatives-cli-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const out = join(dir, "generated.json");
    const generated = await runCli(["questions", "generate", HANDBOOK_PATH, "--count", "3", "--negatives", "2", "--out", out], env);
    assert.equal(generated.code, 0, generated.stderr);
    assert.match(generated.stdout, /negative controls: 2 of 2 written \("answerable": false; a section asked about a subject the document never mentions\)/);
    const file = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(file.questions.filter((q: { answerable?: boolean }) => q.answerable === false).length, 2);

    const bench = await runCli(["bench", HANDBOOK_PATH, "--questions", out, "-s", "recursive"], env);
    assert.equal(bench.code, 0, bench.stderr);
    const line =
      // The hash embedder gives no context relevance (the judge's evidence would be the retriever's own).
      /negative controls: recursive abstained on (\d) of 2 unanswerable question\(s\) \(context relevance (n\/a|[\d.]+) on them, (n\/a|[\d.]+) on/.exec(
        bench.stdout,
      );
    assert.ok(line, bench.stdout);
    console.log(`# ${line[0]}`);

    const bad = await runCli(["questions", "generate", HANDBOOK_PATH, "--negatives", "-1", "--out", join(dir, "x.json")], env);
    assert.equal(bad.code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
