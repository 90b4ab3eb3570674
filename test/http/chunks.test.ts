import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startTestServer } from "../helpers/server.js";
import { handbookBytes } from "../helpers/documents.js";

const QUESTIONS = JSON.parse(readFileSync(new URL("../../questions/harbor-light-handbook.json", import.meta.url), "utf8")).slice(0, 5) as Array<{
  question: string;
  references: Array<{ text: string }>;
}>;

test("POST /benchmarks takes inline chunks beside the strategies; bad chunks are 422 naming the item, in the background too", async () => {
  const t = await startTestServer();
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body.id as string;
    // The references themselves as the pipeline's chunks: every question's reference is one chunk.
    const mine = QUESTIONS.map((q) => ({ document: "handbook.docx", text: q.references[0]!.text }));
    const bench = await t.request("POST", "/benchmarks", {
      document_id: doc,
      strategies: ["recursive"],
      chunks: { mine },
      questions: QUESTIONS,
      dry_run: true,
    });
    assert.equal(bench.status, 201, JSON.stringify(bench.body));
    assert.deepEqual(bench.body.strategies_used, ["recursive", "mine"]);
    assert.equal(bench.body.aggregate_metrics.mine.avg_recall, 1);

    const bad = {
      document_id: doc,
      strategies: ["recursive"],
      chunks: { mine: [...mine, { document: "other.docx", text: "x" }] },
      questions: QUESTIONS,
      dry_run: true,
    };
    for (const path of ["/benchmarks", "/benchmarks?background=true"]) {
      const refused = await t.request("POST", path, bad);
      assert.equal(refused.status, 422, path);
      assert.equal(refused.body.type, "ValidationError");
      assert.match(refused.body.detail, /chunks\.mine, item 6: no document "other\.docx" in the benchmark/);
    }
    const notList = await t.request("POST", "/benchmarks", { ...bad, chunks: { mine: "text" } });
    assert.equal(notList.status, 422);
    const experiments = await t.request("GET", "/experiments");
    assert.equal(experiments.body.total, 1, "only the good request stored an experiment");
  } finally {
    await t.close();
  }
});
