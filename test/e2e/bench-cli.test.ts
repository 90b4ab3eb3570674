import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

test("bench, experiments and report from the CLI: scorecard, report files, --fail-under, --baseline, errors", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-bench-cli-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const questions = join(dir, "q.json");
    const all = JSON.parse(readFileSync("questions/harbor-light-handbook.json", "utf8"));
    writeFileSync(questions, JSON.stringify(all.slice(0, 5)));
    const html = join(dir, "report.html");

    // A terminal wide enough for the whole scorecard: one table, each header row on one line (test/e2e/terminal-cli.test.ts: narrower ones).
    const first = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive,fixed_size", "--out", html], { ...env, COLUMNS: "400" });
    assert.equal(first.code, 0, first.stderr);
    // The answer is said first, before the scorecard it stands on (issue 39).
    assert.match(first.stdout.split("\n")[0]!, /^(Use (recursive|fixed_size): |No clear winner among )/);
    assert.match(first.stdout, /strategy.*composite.*ctx relevance.*answer sim.*faithful.*halluc.*recall.*IoU.*efficiency.*hit rate.*MRR/);
    assert.match(first.stdout, /0-10 ↑.*0-10 ↑.*0-10 ↑.*0-10 ↑.*0-1 ↓.*0-1 ↑.*seconds ↓/, "headers carry scale and direction");
    assert.match(first.stdout, /^Composite of: .*recall \d+ %/m, "the scorecard says which metrics the composite holds");
    assert.match(first.stdout, /n\/a — answers are copied from the retrieved context .*\(avg_faithfulness, hallucination_rate\)/);
    assert.match(first.stdout, /verdict: (recursive|fixed_size) scored highest; its lead over (recursive|fixed_size) is (not )?significant at 95 %/);
    // "best strategy" only under a recommendation's headline (test/e2e/terminal-cli.test.ts has a run without one).
    const named = /^Use (recursive|fixed_size): /m.test(first.stdout) ? "best strategy" : "highest composite";
    assert.match(
      first.stdout,
      new RegExp(`^${named}: (recursive|fixed_size) \\(\\*\\); total latency [\\d.]+ s \\([\\d.]+ s of it shared: embedding the questions, warming up\\)`, "m"),
    );
    const id = first.stdout.match(/experiment: (exp_[0-9a-f]+)/)![1]!;
    const documentId = first.stdout.match(/document: harbor-light-handbook\.docx \((doc_[0-9a-f]+)\)/)![1]!;
    assert.match(readFileSync(html, "utf8"), new RegExp(`document harbor-light-handbook\\.docx \\(${documentId}\\)`), "the report names the file");
    assert.match(readFileSync(html, "utf8"), /<svg class="chart"/);

    const json = await runCli(
      [
        "bench",
        HANDBOOK_PATH,
        "--questions",
        questions,
        "-s",
        "recursive,fixed_size",
        "--json",
        "--baseline",
        id,
        "--fail-under",
        "hit_rate=0.2",
        "--fail-over",
        "avg_latency_seconds=100",
      ],
      env,
    );
    assert.equal(json.code, 0, json.stderr);
    const e = JSON.parse(json.stdout);
    for (const k of [
      "experiment_id",
      "document_id",
      "strategies_used",
      "questions_count",
      "aggregate_metrics",
      "best_strategy",
      "total_latency_seconds",
      "estimated_cost_usd",
      "created_at",
    ])
      assert.ok(k in e, k);
    for (const k of ["avg_context_relevance", "avg_answer_similarity", "avg_faithfulness", "hallucination_rate", "total_questions", "failed_questions"])
      assert.ok(k in e.aggregate_metrics.recursive, k);
    assert.equal(e.baseline_deltas.recursive.avg_recall, 0, "same inputs, same retrieval");
    assert.deepEqual(e.metrics.hallucination_rate, { scale: "0-1", direction: "lower", definition: e.metrics.hallucination_rate.definition });
    assert.equal(e.metrics.avg_context_relevance.scale, "0-10");
    assert.equal(e.aggregate_metrics.recursive.avg_faithfulness, null);
    assert.match(e.aggregate_metrics.recursive.missing.avg_faithfulness, /copied from the retrieved context/);
    assert.equal(e.aggregate_metrics.recursive.confidence_intervals.avg_recall.length, 2);
    assert.equal(typeof e.verdict, "string");
    assert.equal(e.comparisons[0].metric, "composite_score");

    const fail = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive", "--fail-under", "composite_score=9.9", "-q"], env);
    assert.equal(fail.code, 4, "a failed gate has its own exit code");
    assert.match(fail.stderr, /--fail-under composite_score=9.9 missed: recursive has \d/);

    // Gates go the right way: a floor on a lower-is-better metric is a usage error naming --fail-over.
    const wrongWay = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "--fail-under", "hallucination_rate=0.1"], env);
    assert.equal(wrongWay.code, 2);
    assert.match(wrongWay.stderr, /hallucination_rate: lower is better, so gate it with --fail-over hallucination_rate=0.1/);
    const wrongWayUp = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "--fail-over", "avg_recall=0.5"], env);
    assert.equal(wrongWayUp.code, 2);
    assert.match(wrongWayUp.stderr, /avg_recall: higher is better, so gate it with --fail-under avg_recall=0.5/);
    // A metric that cannot be measured fails its gate, with the reason.
    const unmeasured = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive", "--fail-over", "hallucination_rate=0.1", "-q"], env);
    assert.equal(unmeasured.code, 4);
    assert.match(unmeasured.stderr, /--fail-over hallucination_rate=0.1 missed: recursive has n\/a \(answers are copied/);

    const list = JSON.parse((await runCli(["experiments", "--json"], env)).stdout);
    assert.equal(list.total, 4);
    assert.deepEqual(Object.keys(list.items[0]).sort(), ["created_at", "document_id", "document_name", "id", "strategies_used"]);
    assert.equal(list.items[3].id, id, "newest first");
    assert.deepEqual([list.items[3].document_id, list.items[3].document_name], [documentId, "harbor-light-handbook.docx"]);
    assert.match((await runCli(["experiments"], env)).stdout, new RegExp(`${id} .*harbor-light-handbook\\.docx \\(${documentId}\\)`));

    const md = await runCli(["report", id, "--format", "md"], env);
    assert.match(md.stdout, /^# chunkeval experiment exp_/);
    assert.match(md.stdout, new RegExp(`^Document harbor-light-handbook\\.docx \\(${documentId}\\); 5 questions`, "m"));
    assert.match(md.stdout, /^Total latency [\d.]+ s \(of which [\d.]+ s shared by every strategy/m);
    assert.match(md.stdout, /composite \(0-10 ↑\)/);
    assert.match(md.stdout, /n\/a — answers are copied .*\(avg_faithfulness, hallucination_rate\)/);
    const exported = JSON.parse((await runCli(["report", id, "--format", "json"], env)).stdout);
    assert.equal(exported.results.recursive.length, 5);
    assert.ok("retrieved" in exported.results.recursive[0] && "metrics" in exported.results.recursive[0]);
    assert.equal(exported.metrics.avg_recall.direction, "higher");
    assert.ok(exported.details.statistics.resamples > 0);
    const tech = join(dir, "tech.html");
    assert.equal((await runCli(["report", id, "--view", "technical", "--out", tech], env)).code, 0);
    assert.match(readFileSync(tech, "utf8"), /Chunking strategy benchmark: technical report/);
    assert.match(readFileSync(tech, "utf8"), /n\/a — answers are copied from the retrieved context/, "the reason stands where the number would");
    assert.match(readFileSync(html, "utf8"), /n\/a — answers are copied from the retrieved context .*\(avg_faithfulness, hallucination_rate\)/);

    const missing = await runCli(["report", "exp_nope"], env);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /experiment not found: exp_nope/);
    const badView = await runCli(["report", id, "--view", "fancy"], env);
    assert.equal(badView.code, 2);
    const badThreshold = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "--fail-under", "speed=3"], env);
    assert.equal(badThreshold.code, 2);
    assert.match(badThreshold.stderr, /--fail-under expects METRIC=VALUE/);
    writeFileSync(join(dir, "bad.yaml"), "- question: 3\n");
    const badQuestions = await runCli(["bench", HANDBOOK_PATH, "--questions", join(dir, "bad.yaml")], env);
    assert.equal(badQuestions.code, 2);
    assert.match(badQuestions.stderr, /bad\.yaml: item 1: "question" must be a non-empty string/);
    const noQuestions = await runCli(["bench", HANDBOOK_PATH], env);
    assert.equal(noQuestions.code, 2);
    assert.match(noQuestions.stderr, /missing required argument <questions>/);
    assert.equal(JSON.parse((await runCli(["experiments", "--json"], env)).stdout).total, 4, "failed runs stored nothing");
    const documents = JSON.parse((await runCli(["documents", "--json"], env)).stdout);
    assert.equal(documents.total, 1, "every bench of the same file reused the document its first run uploaded");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bench where every question fails exits 1 and says why, instead of a scorecard of n/a", async () => {
  const { startOpenAiStub } = await import("../helpers/openai-server.js");
  const stub = await startOpenAiStub({ reply: () => "I refuse to answer in JSON" });
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-bench-failed-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" };
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, JSON.stringify(JSON.parse(readFileSync("questions/harbor-light-handbook.json", "utf8")).slice(0, 2)));
    const run = await runCli(["bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive", "--judge", "openai:judge", "-q"], env);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /every question failed; the first error: .*judge reply .* could not be parsed as JSON/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stub.close();
  }
});
