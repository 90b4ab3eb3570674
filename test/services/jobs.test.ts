import { test } from "node:test";
import assert from "node:assert/strict";
import { RESTART_ERROR } from "../../src/services/jobs.js";
import { createWorkspace } from "../helpers/workspace.js";

test("jobs a dead server left pending or running are marked failed when the next runner starts", async () => {
  const ws = await createWorkspace();
  try {
    const jobs = ws.app.context.jobs;
    jobs.insert({ jobId: "job_pending", jobType: "benchmark", params: {}, createdAt: "2026-01-01T00:00:00" });
    jobs.insert({ jobId: "job_running", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:01" });
    jobs.markRunning("job_running", "2026-01-01T00:00:02");
    jobs.insert({ jobId: "job_done", jobType: "process", params: {}, createdAt: "2026-01-01T00:00:03" });
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
