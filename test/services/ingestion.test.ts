import { test } from "node:test";
import assert from "node:assert/strict";
import { buildDocx } from "../helpers/documents.js";
import { createWorkspace } from "../helpers/workspace.js";

test("/v1: a version committed before the deadline is a success, even when publishing it outlasts the window", async () => {
  const ws = await createWorkspace({ ingestion_timeout_seconds: 2 });
  try {
    const tenant = ws.app.tenants.createTenant("acme");
    ws.app.tenants.createDomain(tenant.id, "manuals", "Manuals");
    const bytes = await buildDocx([{ h: "Pumps" }, { p: "The pump station runs on two diesel engines." }, { p: "Each engine is serviced every spring." }]);
    // Publishing (showing the new version, hiding older ones) is slowed past the window.
    const { points } = await ws.internals.v1();
    const publish = points.setLiveVersion.bind(points);
    points.setLiveVersion = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      return publish(...args);
    };
    const result = await ws.app.ingestFile(tenant.id, "manuals", "pumps.docx", bytes);
    assert.equal(result.version, 1);
    assert.ok(result.chunksIndexed > 0);
    const job = ws.app.ingestionJob(tenant.id, result.ingestionJobId);
    assert.equal(job.status, "completed", "the job is not failed behind the client's back");
    assert.equal((await ws.app.listPoints(tenant.id, {}, { offset: 0, limit: 50 })).total, result.chunksIndexed);
  } finally {
    await ws.cleanup();
  }
});
