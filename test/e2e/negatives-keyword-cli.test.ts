// The reviewer's path as a new user takes it: offline template questions with negative controls
// on a document that is neither of our corpora (a speech), then bench under two retrievers
// (`--retrievers dense,keyword`: a dense row beside the default keyword one), default offline
// stack with the semantic `use` embedder. The negative controls' context
// relevance must be low on both rows, and the verdict notes must say which judge scored which rows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";

const SPEECH = [
  "# Address to the Graduating Class of the Northfield Technical College",
  "## Opening",
  "Friends, families and graduates, thank you for letting an old engineer speak on the last morning of your studies. Forty years ago " +
    "I sat where you sit now, worried about rent and exams.",
  "## What the Workshop Taught Me",
  "My first foreman told me to measure twice and cut once. I ignored him, ruined a week of welding, and learned that patience is cheaper than steel.",
  "The workshop taught me that a drawing is a promise: every dimension on it is someone trusting your hands.",
  "## On Failure",
  "You will fail, and some failures will be public. When our bridge inspection missed a cracked bearing in 1994, we rewrote every " +
    "checklist in the county, and no bearing has been missed since.",
  "## Looking Ahead",
  "The trades you have learned will change faster than mine did. Keep learning, keep your tools clean, and teach the apprentice who comes after you.",
].join("\n\n");

test("questions generate --template --negatives then bench with a keyword row: negatives score low on both rows; the notes name each row's judge", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-negatives-keyword-cli-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "use" };
  try {
    const doc = join(dir, "speech.md");
    writeFileSync(doc, SPEECH);
    const out = join(dir, "questions.json");
    const generated = await runCli(["questions", "generate", doc, "--template", "--count", "3", "--negatives", "6", "--out", out], env);
    assert.equal(generated.code, 0, generated.stderr);
    assert.equal(JSON.parse(readFileSync(out, "utf8")).questions.filter((q: { answerable?: boolean }) => q.answerable === false).length, 6);

    const rows = ["recursive@retrieval=dense", "recursive"];
    const bench = await runCli(["bench", doc, "--questions", out, "-s", "recursive", "--retrievers", "dense,keyword", "--top-k", "3", "--yes"], env);
    assert.equal(bench.code, 0, bench.stderr);
    for (const row of rows) {
      const escaped = row.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const line = new RegExp(
        `negative controls: ${escaped} abstained on \\d of 6 unanswerable question\\(s\\) \\(context relevance ([\\d.]+) on them, [\\d.]+ on the answerable\\)`,
      ).exec(bench.stdout);
      assert.ok(line, bench.stdout);
      console.log(`# ${line[0]}`);
      assert.ok(Number(line[1]) <= 2, `${row}: negatives' context relevance ${line[1]}`);
    }
    assert.match(
      bench.stdout,
      new RegExp(
        "Context relevance is scored by different evidence per retrieval mode: dense rows \\(recursive@retrieval=dense\\) by lexical evidence[^;]*; " +
          "keyword rows \\(recursive\\) by the judge's ranking of the document's sentences \\(the use embedder fused with the question's rare words\\)\\. " +
          "Compare context relevance within a retrieval mode",
      ),
    );
    assert.match(bench.stdout, /strategy × retriever, composite/);
    const json = await runCli(["bench", doc, "--questions", out, "-s", rows.join(","), "--top-k", "3", "--json", "--yes"], env);
    assert.equal(json.code, 0, json.stderr);
    const experiment = JSON.parse(json.stdout);
    assert.ok(
      experiment.verdict_notes.some((n: string) => /different evidence per retrieval mode/.test(n)),
      JSON.stringify(experiment.verdict_notes),
    );
    // Question by question, not only the average: every negative control low on both rows.
    const report = join(dir, "report.json");
    const exported = await runCli(["report", experiment.experiment_id, "--format", "json", "--out", report], env);
    assert.equal(exported.code, 0, exported.stderr);
    type Result = { question: string; answerable?: boolean; metrics: { context_relevance: number | null } };
    const results: Record<string, Result[]> = JSON.parse(readFileSync(report, "utf8")).results;
    for (const row of rows) {
      const negatives = results[row]!.filter((r) => r.answerable === false);
      assert.equal(negatives.length, 6);
      for (const r of negatives) {
        const relevance = r.metrics.context_relevance;
        assert.ok(relevance !== null && relevance <= 2, `${row}: ${r.question}: ${relevance}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
