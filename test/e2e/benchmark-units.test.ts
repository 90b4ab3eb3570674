import { test } from "node:test";
import assert from "node:assert/strict";
import { waitFor } from "../helpers/long-running.js";
import { ended, experimentOf, STRATEGIES, withSlowBenchmark, type Deployment } from "../helpers/benchmark-deployment.js";

/**
 * A background benchmark's units on the PostgreSQL queue when their workers are killed (SIGKILL)
 * or stall past their lease (SIGSTOP), or the benchmark is stopped: leases and signals, so this
 * file runs in the serial lane (test/lanes.mjs). How units are shared and fail:
 * test/e2e/benchmark-units-share.test.ts.
 */

test("a unit whose worker is killed (SIGKILL) is taken over after its lease, and the benchmark completes", () =>
  withSlowBenchmark("kill", async (d, jobId) => {
    // The unit to kill is one the worker not running the benchmark holds, so that the kill stops a unit only.
    const held = (await waitFor(
      "a unit held by the worker that does not run the benchmark",
      async () => {
        const benchmark = await d.job(jobId);
        const units = await d.units(jobId);
        return units.find((u) => u.status === "running" && u.lease_owner && benchmark.lease_owner && u.lease_owner !== benchmark.lease_owner) ?? null;
      },
      (u) => u !== null,
    ))!;
    const victim = d.workers.find((w) => held.lease_owner!.includes(`:${w.pid}:`))!;
    assert.ok(victim, `the unit's holder is one of the workers: ${held.lease_owner}`);
    victim.kill("SIGKILL");
    await new Promise((resolve) => victim.once("exit", resolve));
    await d.startWorker();
    const job = await ended(d, jobId);
    assert.equal(job.status, "completed", `error: ${job.error}`);
    const unit = (await d.units(jobId)).find((u) => u.id === held.id)!;
    assert.equal(unit.status, "completed");
    assert.equal(unit.attempts, 2, "claimed by the killed worker, then taken over");
    assert.ok((await experimentOf(d, jobId)).details.indexing.every((x) => x.chunks > 0));
  }));

test("a benchmark stopped while its units run (its row failed, as a delete through another process does) cancels its unfinished units", () =>
  withSlowBenchmark("cancel", async (d, jobId) => {
    await waitFor(
      "a unit to run",
      () => d.units(jobId),
      (units) => units.some((u) => u.status === "running"),
    );
    await d.db.query(`UPDATE jobs SET status = 'failed', error = 'stopped by the test', lease_owner = NULL WHERE id = $1`, [jobId]);
    const units = await waitFor(
      "every unit to end",
      () => d.units(jobId),
      (rows) => rows.every((u) => u.status === "completed" || u.status === "failed"),
    );
    const cancelled = units.filter((u) => u.status === "failed");
    assert.ok(cancelled.length > 0, "some units had not finished when the benchmark stopped");
    for (const u of cancelled) assert.equal(u.error, `cancelled: its parent job ${jobId} stopped`);
    assert.equal((await d.job(jobId)).error, "stopped by the test");
  }));

/** The worker running the benchmark once it runs units of its own too, and its lease owner. */
async function holderRunningItsUnits(d: Deployment, jobId: string) {
  const benchmark = await waitFor(
    "the benchmark to run its own units",
    async () => ({ job: await d.job(jobId), units: await d.units(jobId) }),
    ({ job, units }) => job.status === "running" && units.some((u) => u.status === "running" && u.lease_owner === job.lease_owner),
  );
  const leaseOwner = benchmark.job.lease_owner!;
  return { holder: d.workers.find((w) => leaseOwner.includes(`:${w.pid}:`))!, leaseOwner };
}

test("a benchmark whose worker is killed (SIGKILL) mid-way is taken over; its new attempt adopts the unfinished units instead of queueing them again", () =>
  withSlowBenchmark("takeover", async (d, jobId, documents) => {
    const { holder } = await holderRunningItsUnits(d, jobId);
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    await d.startWorker();
    const job = await ended(d, jobId);
    assert.equal(job.status, "completed", `error: ${job.error}`);
    // Taken over at least once; with short leases a loaded machine can delay a heartbeat past its
    // lease and add a takeover, which is the queue working. What must hold whatever the load:
    // no unit is queued twice and none failed.
    assert.ok((await d.db.query(`SELECT attempts FROM jobs WHERE id = $1`, [jobId])).rows[0].attempts >= 2, "taken over");
    const units = await d.units(jobId);
    assert.equal(units.length, documents * STRATEGIES.length, "no unit queued twice");
    assert.deepEqual(new Set(units.map((u) => u.status)), new Set(["completed"]));
  }));

test("a benchmark whose worker stalls past its lease (SIGSTOP) is taken over; resumed, that worker leaves the units to the new attempt", () =>
  withSlowBenchmark("stall", async (d, jobId, documents) => {
    const { holder, leaseOwner } = await holderRunningItsUnits(d, jobId);
    holder.kill("SIGSTOP");
    try {
      await waitFor(
        "the other worker to take the benchmark over",
        () => d.job(jobId),
        (j) => j.status === "running" && j.lease_owner !== null && j.lease_owner !== leaseOwner,
      );
    } finally {
      holder.kill("SIGCONT");
    }
    const job = await ended(d, jobId);
    assert.equal(job.status, "completed", `error: ${job.error}`);
    // Taken over at least once; with short leases a loaded machine can delay a heartbeat past its
    // lease and add a takeover, which is the queue working. What must hold whatever the load:
    // no unit is queued twice and none failed.
    assert.ok((await d.db.query(`SELECT attempts FROM jobs WHERE id = $1`, [jobId])).rows[0].attempts >= 2, "taken over");
    const units = await d.units(jobId);
    assert.equal(units.length, documents * STRATEGIES.length, "no unit queued twice");
    assert.deepEqual(new Set(units.map((u) => u.status)), new Set(["completed"]), "no unit failed or cancelled by the stalled worker");
  }));
