import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

test("bench progress without a terminal: a short readable log by default, every event as JSON with --progress json, a bad mode is exit 2", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-progress-cli-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, JSON.stringify(JSON.parse(readFileSync("questions/harbor-light-handbook.json", "utf8")).slice(0, 20)));
    const strategies = ["recursive", "fixed_size", "structure", "semantic"];
    const args = ["bench", HANDBOOK_PATH, "--questions", questions, "-s", strategies.join(",")];

    const lines = await runCli(args, env);
    assert.equal(lines.code, 0, lines.stderr);
    const log = lines.stderr.trimEnd().split("\n");
    assert.ok(log.length <= 30, `at most 30 progress lines for 4 strategies x 20 questions, got ${log.length}:\n${lines.stderr}`);
    assert.equal(log[0], "benchmarking");
    for (const s of strategies)
      assert.ok(
        log.some((l) => l.startsWith(`  answer ${s}: 20 questions answered (20/20, `)),
        `${s} ends with its count`,
      );
    assert.match(log.at(-1)!, /^experiment exp_[0-9a-f]+ \(\d+\.\d s\)$/);
    assert.match(lines.stdout, /experiment: exp_/, "results stay on stdout");
    assert.doesNotMatch(lines.stdout, /answer recursive/, "progress stays off stdout");

    const json = await runCli(["--progress", "json", ...args, "--json"], env);
    assert.equal(json.code, 0, json.stderr);
    const events = json.stderr
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { event: string; stage?: string; strategy?: string; done?: number; total?: number; ok?: boolean });
    assert.equal(events[0]!.event, "start");
    assert.deepEqual(events.at(-1)!.event === "end" && events.at(-1)!.ok, true);
    const answers = events.filter((e) => e.event === "progress" && e.stage === "answer");
    assert.equal(answers.length, strategies.length * 21, "every question of every strategy, and each strategy's end");
    assert.ok(events.length > log.length, "lines mode shows fewer lines than there are events");
    assert.ok(JSON.parse(json.stdout).experiment_id, "stdout is the result's JSON alone");

    // Notes and errors too: under --progress json every stderr line is a JSON object.
    const parsed = (stderr: string) =>
      stderr
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const gated = await runCli(
      ["--progress", "json", "bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive", "--fail-under", "composite_score=9.9"],
      env,
    );
    assert.equal(gated.code, 4, gated.stderr);
    const notes = parsed(gated.stderr).filter((e) => e.event === "note");
    assert.ok(
      notes.some((e) => /--fail-under composite_score=9\.9 missed: recursive has \d/.test(String(e.message))),
      gated.stderr,
    );
    const missing = await runCli(["--progress", "json", "bench", join(dir, "missing.docx"), "--questions", questions], env);
    assert.notEqual(missing.code, 0);
    assert.deepEqual(
      parsed(missing.stderr).map((e) => [e.event, e.exit_code]),
      [["error", missing.code]],
      missing.stderr,
    );

    const bad = await runCli(["--progress", "fancy", ...args], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--progress <mode>' argument 'fancy' is invalid\. Allowed choices are auto, lines, json/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
