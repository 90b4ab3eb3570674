import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, waitForJob } from "../helpers/server.js";
import { handbookBytes } from "../helpers/documents.js";

test("POST /benchmarks gates a run as bench's CI options do: floors and a stored baseline, checked on the run, returned and stored with it", async () => {
  const t = await startTestServer();
  try {
    copyFileSync("questions/harbor-light-handbook.json", join(t.ws.dir, "questions", "handbook.json"));
    const doc = (await t.upload("handbook.docx", handbookBytes())).body.id as string;
    const run = { document_id: doc, strategies: ["recursive", "fixed_size"], questions_file: "handbook.json", top_k: 3 };

    // A floor no run can reach fails; one every run reaches passes.
    const floors = await t.request("POST", "/benchmarks", { ...run, fail_under: ["hit_rate=2", "hit_rate=0"] });
    assert.equal(floors.status, 201, floors.text);
    assert.deepEqual(
      floors.body.gates.map((g: { gate: string; passed: boolean }) => [g.gate, g.passed]),
      [
        ["--fail-under hit_rate=2", false],
        ["--fail-under hit_rate=0", true],
      ],
    );
    assert.deepEqual((await t.request("GET", `/benchmarks/${floors.body.experiment_id}`)).body.gates, floors.body.gates, "stored with the experiment");

    // The same run against itself: no significant regression, and a drop bound it keeps.
    const compared = await t.request("POST", "/benchmarks", {
      ...run,
      baseline_experiment_id: floors.body.experiment_id,
      fail_on_regression: "composite_score",
      max_drop: ["avg_recall=0.05"],
    });
    assert.equal(compared.status, 201, compared.text);
    assert.deepEqual(
      compared.body.gates.map((g: { gate: string; passed: boolean }) => [g.gate, g.passed]),
      [
        ["--fail-on-regression composite_score", true],
        ["--max-drop avg_recall=0.05", true],
      ],
      JSON.stringify(compared.body.gates),
    );
    // Three chunks fewer to find the references in: recall drops, and a bound of no drop at all fails.
    const narrower = await t.request("POST", "/benchmarks", {
      ...run,
      top_k: 1,
      baseline_experiment_id: floors.body.experiment_id,
      max_drop: ["avg_recall=0"],
    });
    assert.equal(narrower.status, 201, narrower.text);
    assert.deepEqual(
      narrower.body.gates.map((g: { gate: string; passed: boolean }) => [g.gate, g.passed]),
      [["--max-drop avg_recall=0", false]],
      JSON.stringify(narrower.body.gates),
    );

    // What a CI job reads of the run, as bench --junit/--summary/--save-baseline writes it: the stored gates, the failed one a failure.
    const junit = await t.request("GET", `/benchmarks/${narrower.body.experiment_id}/ci?format=junit`);
    assert.equal(junit.status, 200, junit.text);
    assert.match(junit.headers.get("content-type") ?? "", /application\/xml/);
    assert.match(junit.text, /<testsuite [^>]*failures="1"/, junit.text);
    assert.match(junit.text, /--max-drop avg_recall=0/);
    const summary = await t.request("GET", `/benchmarks/${narrower.body.experiment_id}/ci?format=summary&baseline=${floors.body.experiment_id}`);
    assert.equal(summary.status, 200, summary.text);
    assert.match(summary.text, /^## ❌ chunkeval: /, summary.text);
    assert.match(summary.text, new RegExp(`${floors.body.experiment_id}`), "the summary names the baseline it compares with");
    const baselineFile = await t.request("GET", `/benchmarks/${narrower.body.experiment_id}/ci?format=baseline`);
    assert.equal(baselineFile.status, 200, baselineFile.text);
    assert.equal(baselineFile.body.experiment_id, narrower.body.experiment_id);
    assert.equal((await t.request("GET", `/benchmarks/exp_missing/ci?format=junit`)).status, 404);
    assert.equal((await t.request("GET", `/benchmarks/${floors.body.experiment_id}/ci?format=pdf`)).status, 422);
    // An unknown baseline, a query key the route does not take: refused with the error body, not a 500.
    const unknownBaseline = await t.request("GET", `/benchmarks/${floors.body.experiment_id}/ci?format=summary&baseline=exp_missing`);
    assert.equal(unknownBaseline.status, 404, unknownBaseline.text);
    assert.ok(unknownBaseline.body.detail, unknownBaseline.text);
    assert.equal((await t.request("GET", `/benchmarks/${floors.body.experiment_id}/ci?format=junit&colour=red`)).status, 422);

    // In the background too: the gates travel with the job.
    const queued = await t.request("POST", "/benchmarks?background=true", { ...run, fail_over: ["avg_retrieved_tokens=1"] });
    assert.equal(queued.status, 202, queued.text);
    const done = await waitForJob(t, queued.body.job_id, 800);
    assert.equal(done.status, "completed", JSON.stringify(done));
    const experiment = (await t.request("GET", `/benchmarks/${done.result.experiment_id}`)).body;
    assert.deepEqual(done.result.gates, experiment.gates, "the job's result carries them too");
    assert.deepEqual(
      experiment.gates.map((g: { gate: string; passed: boolean }) => [g.gate, g.passed]),
      [["--fail-over avg_retrieved_tokens=1", false]],
    );

    // Refused before any work, synchronous or not: nothing is stored and no job is made.
    const experiments = (await t.request("GET", "/experiments")).body.total;
    const jobs = (await t.request("GET", "/jobs")).body.total;
    const refused: Array<[string, Record<string, unknown>, number, RegExp]> = [
      ["a regression gate without a baseline", { fail_on_regression: "composite_score" }, 422, /compares with a baseline: add baseline_experiment_id/],
      ["a floor on a lower-is-better metric", { fail_under: ["hallucination_rate=0.2"] }, 422, /gate it with --fail-over/],
      ["a malformed drop", { baseline_experiment_id: floors.body.experiment_id, max_drop: ["avg_recall"] }, 422, /METRIC=V/],
      ["a baseline and nothing to compare with it", { baseline_experiment_id: floors.body.experiment_id }, 422, /add one of them, or leave it out/],
      ["an unknown baseline", { baseline_experiment_id: "exp_missing", fail_on_regression: "composite_score" }, 404, /exp_missing/],
    ];
    for (const [name, gates, status, detail] of refused) {
      for (const background of ["", "?background=true"]) {
        const r = await t.request("POST", `/benchmarks${background}`, { ...run, ...gates });
        assert.equal(r.status, status, `${name}${background}: ${r.text}`);
        assert.match(r.body.detail, detail, name);
      }
    }
    assert.equal((await t.request("GET", "/experiments")).body.total, experiments, "nothing stored");
    assert.equal((await t.request("GET", "/jobs")).body.total, jobs, "no job made");
  } finally {
    await t.close();
  }
});
