import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

test("bench --sweep from the CLI: the grid and its estimate first, keys in every output, the guard without a terminal", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-sweep-cli-"));
  // Its own embedding cache: the estimate counts the tokens still to embed, which the run's warm cache would hold.
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_CACHE_DIR: join(dir, "cache") };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, JSON.stringify(JSON.parse(readFileSync("questions/harbor-light-handbook.json", "utf8")).slice(0, 4)));
    const md = join(dir, "sweep.md");
    const run = await runCli(
      [
        "bench",
        HANDBOOK_PATH,
        "--questions",
        questions,
        "--sweep",
        "recursive:chunk_size=128,256:retrieval=keyword,hybrid", // keyword: the hash embedder's default, so the plain keys
        "--top-k",
        "3",
        "--dry-run",
        "--out",
        md,
        "--fail-under",
        "hit_rate=0.01",
      ],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /sweep: 4 variants \(2 of 2 indexes to build\) × 4 questions = 16 runs; estimated ~[\d.]+ s and ~\$0\.0000 \(dry run\)\n/);
    assert.match(run.stderr, /\n  the time includes embedding \d+ tokens the cache does not hold at [\d.]+ ms per token/);
    // The dry run's figure for the full run, by the same cost model, with what it includes.
    assert.match(
      run.stdout,
      /dry run: a full run started now would cost about \$0\.0000 and take about [\d.]+ s\n +the time includes embedding \d+ tokens [\s\S]*runs at an assumed/,
    );
    assert.match(run.stderr, /recursive@chunk_size=128, recursive@chunk_size=128:retrieval=hybrid, recursive, recursive@retrieval=hybrid/);
    for (const key of ["recursive@chunk_size=128 ", "recursive@chunk_size=128:retrieval=hybrid", "recursive@retrieval=hybrid"])
      assert.ok(run.stdout.includes(key), key);
    assert.match(readFileSync(md, "utf8"), /### Sweep of recursive: chunk_size × retrieval/);

    // Past the confirmation threshold without a terminal: refused unless --yes, before anything runs.
    const big = [
      "bench",
      HANDBOOK_PATH,
      "--questions",
      questions,
      "--sweep",
      "recursive:chunk_size=100,120,140,160,180:chunk_overlap=0,8,16",
      "--dry-run",
      "--json",
    ];
    const refused = await runCli(big, env);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /sweep: 15 variants/);
    assert.match(refused.stderr, /15 variants \(more than 12\).*pass --yes/);
    const limited = await runCli([...big, "--yes", "--max-variants", "10"], env);
    assert.equal(limited.code, 2);
    assert.match(limited.stderr, /15 variants, more than the limit of 10; .*--max-variants 15/);
    assert.doesNotMatch(limited.stderr, /sweep: 15 variants/, "refused before the estimate reads the document or embeds a question");
    // A gate names the variant it judged.
    const gated = await runCli(
      ["bench", HANDBOOK_PATH, "--questions", questions, "--sweep", "recursive:chunk_size=128,256", "--dry-run", "-q", "--fail-under", "avg_iou=0.99"],
      env,
    );
    assert.equal(gated.code, 4, gated.stderr);
    assert.match(gated.stderr, /--fail-under avg_iou=0.99 missed: recursive(@chunk_size=\d+)?( \(highest composite; no clear winner\))? has 0\.\d+/);
    const bad = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive@chunk_size=0"], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /strategy variant "recursive@chunk_size=0": recursive: chunk_size/);
    const plain = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive", "--dry-run", "--json"], env);
    assert.equal(plain.code, 0, plain.stderr);
    assert.doesNotMatch(plain.stderr, /sweep:/, "a plain run prints no sweep estimate");
    assert.deepEqual(JSON.parse(plain.stdout).strategies_used, ["recursive"]);
    const help = await runCli(["bench", "--help"], env);
    assert.match(help.stdout, /--sweep recursive:chunk_size=128,256,512:chunk_overlap=0,32/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
