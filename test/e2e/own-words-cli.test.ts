import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startCli, type CliResult } from "../helpers/cli.js";

const MARKS_OURS = ["--import", fileURLToPath(new URL("../helpers/stderr-origin.mjs", import.meta.url))];
const UPKEEP_CHILD = fileURLToPath(new URL("../helpers/upkeep-child.ts", import.meta.url));
const DOCUMENT = "examples/corpus/brisa-kettle-recall.txt";

/** Runs the CLI with stderr lines of chunkeval's own code marked (test/helpers/stderr-origin.mjs). */
const traced = (args: string[], env: NodeJS.ProcessEnv) => startCli(args, env, undefined, MARKS_OURS).result;

/** The stderr lines chunkeval did not write. */
function foreignLines(r: CliResult): string[] {
  return r.stderr.split("\n").filter((line) => line !== "" && !line.startsWith("\u0002"));
}

test("stderr carries only chunkeval's own lines: upload, process, bench, doctor, and the store's upkeep", { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-own-words-"));
  // The default embedder (the bundled model, in worker threads): its libraries load as a user's would.
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER_WORKERS: "2" };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(
      questions,
      JSON.stringify(
        JSON.parse(readFileSync("questions/corpus.json", "utf8"))
          .filter((q: any) => q.references[0].document === "brisa-kettle-recall.txt")
          .slice(0, 2),
      ),
    );
    const uploaded = await traced(["upload", DOCUMENT, "--json"], env);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    const doc = JSON.parse(uploaded.stdout).id as string;
    const runs: Array<[string, CliResult]> = [["upload", uploaded]];
    runs.push(["process", await traced(["process", doc, "-s", "recursive,semantic"], env)]);
    runs.push(["bench", await traced(["bench", doc, "--questions", questions, "-s", "recursive,semantic"], env)]);
    runs.push(["doctor", await traced(["doctor"], env)]);
    for (const [name, r] of runs) {
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assert.deepEqual(foreignLines(r), [], `${name} wrote lines that are not chunkeval's`);
    }
    assert.ok(runs[2]![1].stderr.split("\n").filter(Boolean).length > 1, "bench's progress lines are there, and marked as ours");

    // The checks can fail: LanceDB's logger turned up by the user writes its own lines, unmarked.
    const verbose = await traced(["process", doc, "-s", "fixed_size"], { ...env, LANCEDB_LOG: "info" });
    assert.equal(verbose.code, 0, verbose.stderr);
    assert.match(foreignLines(verbose).join("\n"), /^\[\S+ INFO +lance/m);
    // ...and so does a Node warning printed by Node itself (here: when the CLI's own printing is bypassed by a preload).
    const nodeWarning = spawnSync(process.execPath, [...MARKS_OURS, "-e", "process.emitWarning('from a dependency', 'SomeWarning')"], { encoding: "utf8" });
    assert.match(foreignLines({ code: 0, stdout: "", stderr: nodeWarning.stderr }).join("\n"), /SomeWarning: from a dependency/);

    // The store's upkeep building an ANN index (past its row threshold) writes nothing either.
    const upkeep = spawnSync(process.execPath, ["--import", "tsx", UPKEEP_CHILD, join(dir, "lancedb")], { encoding: "utf8", env: { ...process.env } });
    assert.equal(upkeep.status, 0, upkeep.stderr);
    assert.equal(upkeep.stderr, "", "upkeep with an ANN index build");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("process warnings reach stderr in chunkeval's words; dependencies' deprecation notes do not", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-own-words-warnings-"));
  try {
    // A preload stands for code running inside the CLI process: it raises warnings after the command's work.
    const raise = join(dir, "raise.mjs");
    writeFileSync(
      raise,
      `process.once("beforeExit", () => {
        process.emitWarning("vector store upkeep failed (attempt 1, retried later): disk full", "ChunkevalUpkeepWarning");
        process.emitWarning("Buffer() is deprecated", "DeprecationWarning");
        process.emitWarning("11 abort listeners added", "MaxListenersExceededWarning");
      });\n`,
    );
    const r = await startCli(["strategies"], { CHUNKEVAL_DATA_DIR: join(dir, "data") }, undefined, ["--import", raise]).result;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stderr,
      "chunkeval: warning: vector store upkeep failed (attempt 1, retried later): disk full\n" +
        "chunkeval: warning: MaxListenersExceededWarning: 11 abort listeners added\n",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
