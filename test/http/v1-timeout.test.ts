// The /v1 ingestion window measured by the clock: in the serial lane (test/lanes.mjs), apart from
// test/http/v1.test.ts, whose other tests need no clock.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { handbookBytes } from "../helpers/documents.js";
import { storedPointRows } from "../helpers/stored-points.js";
import { keysFor, settled, uploadFile } from "../helpers/v1-requests.js";

test("the 504 arrives within INGESTION_TIMEOUT_SECONDS + 2 s however slow the embedder; the abandoned work then removes what it wrote", async () => {
  // A remote embedder that takes 700 ms per request: the upload needs several rounds of requests, past the window.
  const stub = await startOpenAiStub({ dimension: 8, delayMs: 700 });
  const t = await startTestServer(
    { embedder: "openai:slow" },
    { INGESTION_TIMEOUT_SECONDS: "1", CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k", CHUNKEVAL_OPENAI_MAX_RETRIES: "0" },
  );
  try {
    const k = await keysFor(t);
    await t.request("POST", "/v1/domains", { domain: "d", display_name: "D" }, { authorization: k.admin });
    const started = performance.now();
    const r = await uploadFile(t, k.admin, "d", "handbook.docx", handbookBytes());
    const seconds = (performance.now() - started) / 1000;
    assert.deepEqual([r.status, r.body.error.code], [504, "ingestion_timeout"]);
    console.log(`# /v1 504 after ${seconds.toFixed(2)} s for a 1 s window (slow embedder)`);
    assert.ok(seconds < 1 + 2, `504 after ${seconds.toFixed(2)} s for a 1 s window`);
    assert.match(r.body.error.message, /INGESTION_TIMEOUT_SECONDS \(1\) while [a-z ]+$/, "names the step, no path");
    // The abandoned work stops at its next check and removes what it wrote.
    assert.equal(await settled(() => t.ws.internals.ingestionRepo.countSourceFiles()), 0);
    assert.equal(await settled(() => storedPointRows(join(t.ws.dir, "data"))), 0, "no point, hidden or live, in LanceDB");
    assert.deepEqual(
      (await t.ws.internals.ingestionRepo.jobs()).map((j) => [j.status, j.errorCode]),
      [["failed", "ingestion_timeout"]],
    );
  } finally {
    await t.close();
    await stub.close();
  }
});
