import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { RESTART_ERROR } from "../../src/services/jobs.js";
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
    jobs.insert({ jobId: "job_pending", jobType: "benchmark", params: {}, createdAt: "2026-01-01T00:00:00" }, dead);
    jobs.insert({ jobId: "job_running", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:01" }, dead);
    jobs.markRunning("job_running", "2026-01-01T00:00:02");
    jobs.insert({ jobId: "job_done", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:03" }, dead);
    jobs.complete("job_done", { ok: true }, "2026-01-01T00:00:04");
    // Reopening the data directory alone (the CLI) must not touch them: only a server runs jobs.
    await ws.reopen();
    assert.equal(ws.app.getJob("job_running").status, "running");
    const runner = ws.app.createJobRunner();
    for (const id of ["job_pending", "job_running"]) {
      const job = ws.app.getJob(id);
      assert.deepEqual([job.status, job.error], ["failed", RESTART_ERROR]);
      assert.ok(job.finishedAt);
    }
    assert.deepEqual(ws.app.getJob("job_done").result, { ok: true });
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
    jobs.insert({ jobId: "job_other", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:00" }, other);
    jobs.markRunning("job_other", "2026-01-01T00:00:01");
    const runner = ws.app.createJobRunner();
    assert.equal(ws.app.getJob("job_other").status, "running");

    // A late `complete` cannot revive a failed job, nor a late `fail` undo a completed one.
    assert.equal(jobs.fail("job_other", "failed first", "2026-01-01T00:00:02"), true);
    assert.equal(jobs.complete("job_other", { late: true }, "2026-01-01T00:00:03"), false);
    assert.deepEqual([ws.app.getJob("job_other").status, ws.app.getJob("job_other").result], ["failed", null]);
    jobs.insert({ jobId: "job_done", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:04" }, other);
    assert.equal(jobs.complete("job_done", { ok: true }, "2026-01-01T00:00:05"), true);
    assert.equal(jobs.fail("job_done", "late failure", "2026-01-01T00:00:06"), false);
    assert.deepEqual([ws.app.getJob("job_done").status, ws.app.getJob("job_done").error], ["completed", null]);
    await runner.shutdown();
  } finally {
    await ws.cleanup();
  }
});
