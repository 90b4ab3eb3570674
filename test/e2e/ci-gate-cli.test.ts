import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../helpers/cli.js";
import { findAll, parseXml } from "../helpers/xml.js";

const CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));
const QUESTIONS = fileURLToPath(new URL("../../questions/corpus.json", import.meta.url));

/** The 95 % interval of a gate line: "… 95 % interval [-1.88, -0.62] …". */
const intervalOf = (text: string) =>
  text
    .match(/95 % interval \[([-+]\d+\.\d+), ([-+]\d+\.\d+)\]/)!
    .slice(1)
    .map(Number);

test("CI gate: a run made worse (top_k 5 -> 1) fails --fail-on-regression with exit 4, an identical re-run passes; JUnit, summary, tags", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-ci-gate-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  const bench = (...args: string[]) => runCli(["bench", CORPUS, "--questions", QUESTIONS, "-s", "recursive", "-q", ...args], env, dir);
  try {
    const saved = await bench("--top-k", "5", "--save-baseline", "baseline.json", "--tag", "sha=base");
    assert.equal(saved.code, 0, saved.stderr);
    const baselineId = saved.stdout.match(/experiment: (exp_[0-9a-f]+)/)![1]!;
    const file = JSON.parse(readFileSync(join(dir, "baseline.json"), "utf8"));
    assert.equal(file.chunkeval_baseline, 1);
    assert.equal(file.chunkeval_version, JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version);
    assert.match(file.questions_hash, /^[0-9a-f]{64}$/);
    assert.equal(file.embedder, "hash");
    // The run's one search mode: keyword, the hash embedder's default (docs/benchmarks.md "Retrieval").
    assert.deepEqual(file.strategies.recursive.search, { retrieval: "keyword", top_k: 5 });
    assert.equal(Object.keys(file.strategies.recursive.questions).length, 38, "every question's scores, keyed by question");
    assert.deepEqual(file.tags, { sha: "base" });

    // Made worse on purpose: one chunk per question instead of five.
    const worse = await bench(
      "--top-k",
      "1",
      "--baseline",
      "baseline.json",
      "--fail-on-regression",
      "--junit",
      "junit.xml",
      "--summary",
      "summary.md",
      "--out",
      "report.html",
      "--tag",
      'pr=<&"7>',
      "--tag",
      "branch=feature",
    );
    assert.equal(worse.code, 4, `a failed gate exits 4\n${worse.stderr}`);
    const failed = worse.stderr.match(
      new RegExp(
        "--fail-on-regression composite_score failed: recursive: composite_score changed -\\d+\\.\\d+, " +
          "95 % interval .* over 38 paired questions.*significantly worse",
      ),
    );
    assert.ok(failed, worse.stderr);
    const [low, high] = intervalOf(failed[0]);
    assert.ok(low! < high! && high! < 0, `the whole interval lies below zero: [${low}, ${high}]`);
    assert.match(worse.stderr, /note: recursive: its configuration differs from the baseline's \(top_k 5 → 1\)/, "the difference is said, not silent");
    assert.match(worse.stdout, /experiment: exp_\w+ \(changes against the baseline in brackets\)/);
    assert.match(worse.stdout, /report: report\.html/, "the run itself succeeded: its report was written");

    const junit = parseXml(readFileSync(join(dir, "junit.xml"), "utf8"));
    assert.equal(junit.name, "testsuites");
    assert.equal(junit.attributes.failures, "1");
    const cases = findAll(junit, "testcase");
    assert.deepEqual(
      cases.map((c) => [c.attributes.classname, c.attributes.name]),
      [
        ["chunkeval.recursive", "--fail-on-regression composite_score"],
        ["chunkeval.recursive", "benchmark"],
      ],
    );
    const failure = findAll(cases[0]!, "failure")[0]!;
    assert.match(failure.attributes.message!, /composite_score changed -\d+\.\d+, 95 % interval \[-\d+\.\d+, -\d+\.\d+\] over 38 paired questions/);
    assert.match(failure.text, /top_k 5 → 1/);
    assert.equal(findAll(cases[1]!, "failure").length, 0);
    const properties = Object.fromEntries(findAll(junit, "property").map((p) => [p.attributes.name, p.attributes.value]));
    assert.equal(properties["tag.pr"], '<&"7>', "escaped in the file, the same text after parsing");
    assert.equal(properties["tag.branch"], "feature");
    // The answer first: one strategy benchmarked recommends nothing, and the file says so.
    assert.equal(properties.verdict_status, "single_strategy");
    assert.equal(properties.gates, "the gate failed");
    assert.ok(!("best_strategy" in properties) && !("highest_composite" in properties), "one strategy leads nothing");
    assert.match(properties.headline!, /^No recommendation: recursive was the only strategy benchmarked/);

    const summary = readFileSync(join(dir, "summary.md"), "utf8");
    assert.match(summary, /^## ❌ chunkeval: the gate failed\n/);
    assert.match(summary, /\| ❌ failed \| `--fail-on-regression composite_score` \| recursive \| recursive: composite_score changed -/);
    // One strategy benchmarked: its row is not marked as leading anything.
    assert.match(summary, /\| recursive \| \d+\.\d\d \(-\d+\.\d\d\) \|/, "the scorecard with its change against the baseline");
    assert.doesNotMatch(summary, /★/);
    assert.match(summary, /tags: `pr=<&"7>` `branch=feature`/, "in the order given");
    assert.match(summary, /- recursive: its configuration differs from the baseline's \(top_k 5 → 1\)/);
    assert.match(summary, /- `report\.html`/);
    const worseId = worse.stdout.match(/experiment: (exp_[0-9a-f]+)/)![1]!;
    const exported = JSON.parse((await runCli(["report", worseId, "--format", "json"], env, dir)).stdout);
    assert.deepEqual(exported.tags, { pr: '<&"7>', branch: "feature" }, "tags are stored with the experiment");
    const markdown = (await runCli(["report", worseId, "--format", "md"], env, dir)).stdout;
    assert.match(markdown, /^Tags: `pr=.*` · `branch=feature`$/m);
    // The gates are stored with the run: a report made later still says them first.
    assert.equal(exported.details.gates.length, 1);
    assert.equal(exported.details.gates[0].passed, false);
    assert.match(markdown, /gate failed/i);
    assert.ok(markdown.search(/gate failed/i) < markdown.indexOf("| recursive |"), "a later report says the gate before the scorecard");
    const later = (await runCli(["report", worseId, "--out", "later.html"], env, dir)).code;
    assert.equal(later, 0);
    assert.match(readFileSync(join(dir, "later.html"), "utf8"), /<section class="gates failed">\s*<h2>Gates: the gate failed<\/h2>/);
    const html = readFileSync(join(dir, "report.html"), "utf8");
    assert.match(html, /Tags: <code>pr=&lt;&amp;&quot;7&gt;<\/code> · <code>branch=feature<\/code>/);
    // The gated run's report states the gate's result before anything else (issue 39: it never mentioned the gate).
    assert.match(html, /<section class="gates failed">\s*<h2>Gates: the gate failed<\/h2>/);
    assert.ok(html.indexOf("Gates: the gate failed") < html.indexOf("scorecard"), "the gates come first");
    assert.match(html, /<td>failed<\/td><td><code>--fail-on-regression composite_score<\/code><\/td>/);

    // The same configuration again: nothing changed, the gate passes.
    const same = await bench(
      "--top-k",
      "5",
      "--baseline",
      "baseline.json",
      "--fail-on-regression",
      "composite_score,avg_recall",
      "--max-drop",
      "composite_score=0",
    );
    assert.equal(same.code, 0, same.stderr);
    assert.match(
      same.stdout,
      /gate passed: --fail-on-regression composite_score: recursive: composite_score changed \+0\.00, 95 % interval \[\+0\.00, \+0\.00\] over 38 paired/,
    );
    assert.match(same.stdout, /gate passed: --max-drop composite_score=0: recursive: composite_score changed \+0\.00/);
    // The gates' result comes first, before the headline and the scorecard.
    assert.match(same.stdout, /^gates: all \d+ gates passed\ngate passed: /);
    assert.doesNotMatch(same.stdout, /note:|baseline: /, "nothing differs from the baseline, so nothing is noted");

    // A stored experiment as the baseline, and the blunt gate: recall may drop by 0.05 at most.
    const blunt = await bench("--top-k", "1", "--baseline", baselineId, "--max-drop", "avg_recall=0.05", "--json");
    assert.equal(blunt.code, 4, blunt.stderr);
    const gates = JSON.parse(blunt.stdout).gates;
    assert.equal(gates.length, 1);
    assert.equal(gates[0].passed, false);
    assert.match(gates[0].detail, /recursive: avg_recall changed -0\.\d+ over 38 paired questions \(at most 0\.05 lower allowed\)/);

    // Fewer questions than the baseline: only the shared ones are paired, and the summary says so.
    const subset = join(dir, "subset.json");
    writeFileSync(subset, JSON.stringify(JSON.parse(readFileSync(QUESTIONS, "utf8")).slice(0, 20)));
    const fewer = await runCli(
      [
        "bench",
        CORPUS,
        "--questions",
        subset,
        "-s",
        "recursive",
        "-q",
        "--top-k",
        "5",
        "--baseline",
        "baseline.json",
        "--fail-on-regression",
        "--summary",
        "fewer.md",
      ],
      env,
      dir,
    );
    assert.equal(fewer.code, 0, fewer.stderr);
    assert.match(fewer.stdout, /baseline: the questions differ from the baseline's/);
    assert.match(fewer.stdout, /note: paired the 20 questions both runs asked \(20 now, 38 in the baseline\)/);
    assert.match(readFileSync(join(dir, "fewer.md"), "utf8"), /- paired the 20 questions both runs asked \(20 now, 38 in the baseline\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bench CI options refuse bad input with exit 2 before anything runs", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-ci-usage-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  const bench = (...args: string[]) => runCli(["bench", CORPUS, "--questions", QUESTIONS, "-s", "recursive", "-q", ...args], env, dir);
  try {
    writeFileSync(join(dir, "broken.json"), "{ not json");
    writeFileSync(join(dir, "future.json"), JSON.stringify({ chunkeval_baseline: 99 }));
    writeFileSync(join(dir, "other.json"), JSON.stringify({ results: [] }));
    const cases: Array<[string[], RegExp]> = [
      [["--tag", "novalue"], /--tag takes key=value .*got "novalue"/],
      [["--tag", "a=1", "--tag", "a=2"], /--tag a is given twice/],
      [["--fail-on-regression"], /--fail-on-regression compares with a baseline: add --baseline FILE_OR_ID/],
      [["--max-drop", "composite_score=1"], /--max-drop compares with a baseline/],
      [
        ["--baseline", "broken.json", "--fail-on-regression", "avg_latency_seconds"],
        /--fail-on-regression takes METRIC or METRIC@STRATEGY with METRIC one of composite_score, .*got "avg_latency_seconds"/,
      ],
      [["--baseline", "broken.json", "--max-drop", "composite_score=-1"], /--max-drop takes METRIC=V .*got "composite_score=-1"/],
      [["--baseline", "broken.json", "--fail-on-regression"], /baseline file broken\.json: not JSON/],
      [["--baseline", "future.json", "--fail-on-regression"], /baseline file future\.json: format version 99, this chunkeval \(.*\) reads version 1/],
      [["--baseline", "other.json"], /baseline file other\.json: not a chunkeval baseline/],
      [["--baseline", "missing.json"], /baseline file missing\.json: cannot read it \(ENOENT\)/],
    ];
    for (const [args, message] of cases) {
      const result = await bench(...args);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
    const experiments = await runCli(["experiments", "--json"], env, dir);
    assert.equal(JSON.parse(experiments.stdout).total, 0, "nothing was run or stored");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
