import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "../helpers/long-running.js";
import {
  deployment,
  deterministic,
  ended,
  experimentOf,
  generated,
  searchableChunks,
  STRATEGIES,
  type Deployment,
  type UnitResult,
} from "../helpers/benchmark-deployment.js";

/**
 * A background benchmark over a collection on the PostgreSQL queue, its units shared by `chunkeval
 * worker` processes: what they compute together, and a unit's failure. Nothing here waits on a
 * lease or kills a process (those are test/e2e/benchmark-units.test.ts, in the serial lane).
 */

test("two workers share a collection benchmark's (document, variant) units; the experiment equals one worker's; its figures are the units' sums", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-units-"));
  const documents = Array.from({ length: 4 }, (_, i) => ({ name: `doc-${i}.txt`, text: generated(i, 120) }));
  const deployments: Deployment[] = [];
  try {
    const two = await deployment(dir, "two", {}, 2);
    deployments.push(two);
    const jobId = await two.queueBenchmark(documents, STRATEGIES);
    const job = await ended(two, jobId);
    assert.equal(job.status, "completed", `error: ${job.error}`);

    const units = await two.units(jobId);
    assert.equal(units.length, documents.length * STRATEGIES.length, "one unit per (document, variant)");
    assert.deepEqual(new Set(units.map((u) => u.status)), new Set(["completed"]));
    const results = units.map((u) => ({ ...(JSON.parse(u.params_json) as { strategy: string }), ...(JSON.parse(u.result_json!) as UnitResult) }));
    const ranBy = new Set(results.map((r) => Number(r.ranBy.split(":").at(-1))));
    assert.deepEqual(ranBy, new Set(two.workers.map((w) => w.pid)), "both workers ran units");
    // GET /jobs lists the units beside their benchmark.
    const listed = (await (await fetch(`${two.url}/jobs?job_type=process_unit&limit=100`)).json()) as { total: number; items: Array<{ params: unknown }> };
    assert.equal(listed.total, units.length);

    const experiment = await experimentOf(two, jobId);
    for (const strategy of STRATEGIES) {
      const own = results.filter((r) => r.strategy === strategy);
      const indexing = experiment.details.indexing.find((x) => x.strategy === strategy)!;
      assert.ok(Math.abs(indexing.seconds - own.reduce((n, r) => n + r.seconds, 0)) < 1e-9, `${strategy}: indexing seconds are its units' sum`);
      assert.equal(
        indexing.embedded_tokens,
        own.reduce((n, r) => n + r.embedded.computedTokens, 0),
        `${strategy}: embedded tokens are its units' sum`,
      );
      assert.equal(indexing.reused, false);
    }

    const one = await deployment(dir, "one", {}, 1);
    deployments.push(one);
    const single = await one.queueBenchmark(documents, STRATEGIES);
    assert.equal((await ended(one, single)).status, "completed");
    assert.deepEqual(deterministic(experiment), deterministic(await experimentOf(one, single)));
    // Every unit's vectors, wherever it ran, are in the shared store and searched.
    const documentIds = experiment.per_document.map((p) => p.document_id);
    for (const x of experiment.details.indexing)
      assert.equal(await searchableChunks(two, documentIds, x.strategy), x.chunks, `${x.strategy}: every chunk searchable`);
    const totalTokens = (e: Awaited<ReturnType<typeof experimentOf>>) => e.details.indexing.reduce((n, x) => n + x.embedded_tokens, 0);
    assert.ok(totalTokens(experiment) > 0);
  } finally {
    for (const d of deployments) await d.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a unit that fails fails its benchmark with the unit's error, naming document and variant; no unit is left pending", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-units-"));
  const module = join(dir, "fragile.mjs");
  writeFileSync(
    module,
    `export default { name: "fragile", description: "one chunk per document; refuses poisoned text", parameters: [],
       chunk({ text }) { if (text.includes("POISON")) throw new Error("fragile refuses poisoned text"); return [{ start: 0, end: text.length }]; } };\n`,
  );
  let d: Deployment | undefined;
  try {
    d = await deployment(dir, "fail", { CHUNKEVAL_STRATEGY_MODULES: module }, 2);
    const documents = [
      { name: "clean-0.txt", text: generated(0, 30) },
      { name: "poisoned.txt", text: generated(1, 30, "POISON") },
      { name: "clean-2.txt", text: generated(2, 30) },
    ];
    const jobId = await d.queueBenchmark(documents, ["recursive", "fragile"]);
    const job = await ended(d, jobId);
    assert.equal(job.status, "failed");
    assert.match(job.error!, /processing fragile for poisoned\.txt failed: .*fragile refuses poisoned text/);
    const units = await d.units(jobId);
    const failed = units.find((u) => JSON.parse(u.params_json).document_name === "poisoned.txt" && JSON.parse(u.params_json).strategy === "fragile")!;
    assert.equal(failed.status, "failed");
    assert.match(failed.error!, /fragile refuses poisoned text/);
    const settled = await waitFor(
      "no unit pending or running",
      () => d!.units(jobId),
      (rows) => rows.every((u) => u.status === "completed" || u.status === "failed"),
    );
    assert.equal(settled.length, 6);
  } finally {
    await d?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
