import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

const HEALTH_FIELDS = [
  "chunks",
  "median_tokens",
  "mid_sentence_share",
  "tables",
  "tables_split",
  "tables_split_share",
  "target_tokens",
  "tiny_share",
  "tokens_interquartile",
].sort();

test("bench --json and report --format json carry each strategy's chunk health; a search-time variant shares its index's", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-chunk-health-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, JSON.stringify([{ question: "When are board elections held?", references: ["Board elections are held every March"] }]));
    const strategies = ["recursive", "fixed_size", "recursive@retrieval=dense"];
    const bench = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "-s", strategies.join(","), "--dry-run", "--json"], env);
    assert.equal(bench.code, 0, bench.stderr);
    const experiment = JSON.parse(bench.stdout);
    const health = experiment.chunk_health;
    assert.deepEqual(Object.keys(health).sort(), [...strategies].sort(), "one entry per strategy");
    for (const s of strategies) assert.deepEqual(Object.keys(health[s]).sort(), HEALTH_FIELDS, s);
    assert.deepEqual(health["recursive@retrieval=dense"], health.recursive, "the same chunks, searched densely");
    // Measured, not a constant: fixed windows cut sentences, the recursive splitter does not.
    assert.ok(health.fixed_size.mid_sentence_share > health.recursive.mid_sentence_share, JSON.stringify(health));
    assert.equal(health.recursive.target_tokens, 256);
    assert.ok(health.recursive.chunks > 1 && health.recursive.median_tokens > 0);

    const report = await runCli(["report", experiment.experiment_id, "--format", "json"], env);
    assert.equal(report.code, 0, report.stderr);
    const exported = JSON.parse(report.stdout);
    assert.deepEqual(exported.chunk_health, health, "the export carries the same figures");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bench --json carries the run's details (chunk warnings, negative controls) and prints the warnings on stderr", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-chunk-warnings-json-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const doc = join(dir, "ferry.txt");
    writeFileSync(doc, "The ferry leaves at seven. It returns at noon. Tickets cost four euros.\n");
    const questions = join(dir, "q.json");
    writeFileSync(
      questions,
      JSON.stringify([
        { question: "When does the ferry leave?", references: ["The ferry leaves at seven."] },
        { question: "Who painted the harbour mural?", answerable: false },
      ]),
    );
    const bench = await runCli(["bench", doc, "--questions", questions, "-s", "recursive,recursive@chunk_overlap=0", "--top-k", "1", "--json"], env);
    assert.equal(bench.code, 0, bench.stderr);
    const experiment = JSON.parse(bench.stdout);
    const warnings: string[] = experiment.details.chunk_warnings;
    assert.ok(
      warnings.some((w) => w.startsWith("recursive and recursive@chunk_overlap=0 made identical chunks")),
      JSON.stringify(warnings),
    );
    assert.ok(experiment.details.negative_controls, JSON.stringify(experiment.details));
    for (const w of warnings) assert.ok(bench.stderr.includes(`warning: ${w}`), bench.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
