import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.js";
import { handbookBytes } from "../helpers/documents.js";

test("POST /benchmarks and /process take variants and sweeps; results are keyed by variant; bad parameters are 422 naming them", async () => {
  const t = await startTestServer();
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body.id as string;
    const processed = await t.request("POST", `/documents/${doc}/process`, {
      strategies: ["recursive@chunk_size=128", "recursive@chunk_size=128:retrieval=keyword"],
    });
    assert.equal(processed.status, 200);
    assert.deepEqual(
      processed.body.strategies_completed.map((s: { strategy: string }) => s.strategy),
      ["recursive@chunk_size=128"],
    );
    const questions = [{ question: "How many days of annual leave do staff get?" }, { question: "Who approves overtime?" }];
    const bench = await t.request("POST", "/benchmarks", {
      document_id: doc,
      strategies: ["fixed_size@retrieval=hybrid"],
      sweep: ["recursive:chunk_size=128,256"],
      questions,
      top_k: 3,
      dry_run: true,
    });
    assert.equal(bench.status, 201, JSON.stringify(bench.body));
    assert.deepEqual(bench.body.strategies_used, ["fixed_size@retrieval=hybrid", "recursive@chunk_size=128", "recursive"]);
    assert.deepEqual(Object.keys(bench.body.aggregate_metrics), bench.body.strategies_used);
    assert.equal(typeof bench.body.top_k, "undefined", "the spec's fields keep their shapes");
    const bad = await t.request("POST", "/benchmarks", {
      document_id: doc,
      strategies: ["recursive@chunk_size=32:chunk_overlap=32"],
      questions,
      dry_run: true,
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.type, "ValidationError");
    assert.match(bad.body.detail, /strategy variant "recursive@chunk_size=32:chunk_overlap=32": .*chunk_overlap/);
  } finally {
    await t.close();
  }
});
