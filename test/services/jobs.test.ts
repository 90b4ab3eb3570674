import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { JobRunner, RESTART_ERROR } from "../../src/services/jobs/jobs.js";
import { createWorkspace } from "../helpers/workspace.js";

/** The owner a killed server leaves behind: its process no longer exists. */
function deadOwner() {
  return { instance: "ins_dead", pid: spawnSync(process.execPath, ["-e", ""]).pid!, host: hostname() };
}

test("jobs a dead server left pending or running are marked failed when the next runner starts", async () => {
  const ws = await createWorkspace();
  try {
    const jobs = ws.internals.context.jobs;
    const dead = deadOwner();
    await jobs.insert({ jobId: "job_pending", jobType: "benchmark", params: {}, createdAt: "2026-01-01T00:00:00" }, dead);
    await jobs.insert({ jobId: "job_running", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:01" }, dead);
    await jobs.markRunning("job_running", "2026-01-01T00:00:02");
    await jobs.insert({ jobId: "job_done", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:03" }, dead);
    await jobs.complete("job_done", { ok: true }, "2026-01-01T00:00:04");
    // Reopening the data directory alone (the CLI) must not touch them: only a server runs jobs.
    await ws.reopen();
    assert.equal((await ws.app.getJob("job_running")).status, "running");
    const runner = await ws.app.createJobRunner();
    for (const id of ["job_pending", "job_running"]) {
      const job = await ws.app.getJob(id);
      assert.deepEqual([job.status, job.error], ["failed", RESTART_ERROR]);
      assert.ok(job.finishedAt);
    }
    assert.deepEqual((await ws.app.getJob("job_done")).result, { ok: true });
    await runner.shutdown();
  } finally {
    await ws.cleanup();
  }
});

test("a starting server leaves another live server's jobs alone, and a terminal status is final", async () => {
  const ws = await createWorkspace();
  try {
    const jobs = ws.internals.context.jobs;
    // Another server on this machine, alive (this test process) and beating.
    const other = { instance: "ins_other_server", pid: process.pid, host: hostname() };
    await jobs.insert({ jobId: "job_other", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:00" }, other);
    await jobs.markRunning("job_other", "2026-01-01T00:00:01");
    const runner = await ws.app.createJobRunner();
    assert.equal((await ws.app.getJob("job_other")).status, "running");

    // A late `complete` cannot revive a failed job, nor a late `fail` undo a completed one.
    assert.equal(await jobs.fail("job_other", "failed first", "2026-01-01T00:00:02"), true);
    assert.equal(await jobs.complete("job_other", { late: true }, "2026-01-01T00:00:03"), false);
    assert.deepEqual([(await ws.app.getJob("job_other")).status, (await ws.app.getJob("job_other")).result], ["failed", null]);
    await jobs.insert({ jobId: "job_done", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:04" }, other);
    assert.equal(await jobs.complete("job_done", { ok: true }, "2026-01-01T00:00:05"), true);
    assert.equal(await jobs.fail("job_done", "late failure", "2026-01-01T00:00:06"), false);
    assert.deepEqual([(await ws.app.getJob("job_done")).status, (await ws.app.getJob("job_done")).error], ["completed", null]);
    await runner.shutdown();
  } finally {
    await ws.cleanup();
  }
});

test("a running server fails the jobs of another server that dies after it started, without waiting for a restart", async () => {
  const ws = await createWorkspace();
  const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"]);
  try {
    const jobs = ws.internals.context.jobs;
    const owner = { instance: "ins_other_server", pid: other.pid!, host: hostname() };
    await jobs.insert({ jobId: "job_other", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:00" }, owner);
    await jobs.markRunning("job_other", "2026-01-01T00:00:01");
    const runner = await JobRunner.start(jobs, 1, ws.internals.context.owner, async () => true, 50);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await ws.app.getJob("job_other")).status, "running", "its server is alive");
    other.kill("SIGKILL");
    await new Promise((r) => other.once("exit", r));
    for (let i = 0; i < 40 && (await ws.app.getJob("job_other")).status === "running"; i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual([(await ws.app.getJob("job_other")).status, (await ws.app.getJob("job_other")).error], ["failed", RESTART_ERROR]);
    await runner.shutdown();
  } finally {
    other.kill("SIGKILL");
    await ws.cleanup();
  }
});
