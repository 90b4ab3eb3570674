// The offline judge against span recall on the handbook (the shared harness and what it checks:
// test/helpers/ground-truth.ts).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { handbookBytes } from "../helpers/documents.js";
import {
  DENSE,
  HYBRID,
  SMALL_CHUNKS,
  TARGET,
  assertOrdersAsRecall,
  benchAtEachTopK,
  correlation,
  groundTruthWorkspace,
  printStrategies,
} from "../helpers/ground-truth.js";
import type { Workspace } from "../helpers/workspace.js";

let ws: Workspace;
before(async () => (ws = await groundTruthWorkspace()));
after(() => ws.cleanup());

test("context relevance tracks span recall on the handbook: Spearman >= 0.5 at top_k 1 and 5; strategies order as recall does", async () => {
  const runs = await benchAtEachTopK(
    ws,
    { document: { filename: "handbook.docx", bytes: handbookBytes() } },
    "questions/harbor-light-handbook.json",
    "handbook",
    [...DENSE, ...SMALL_CHUNKS, HYBRID],
  );
  for (const [topK, results] of runs.byTopK) {
    const { rho, pairs } = correlation(results, () => true);
    console.log(`# handbook top_k ${topK}: spearman(context relevance, recall) = ${rho.toFixed(3)} over ${pairs} (variant, question) pairs`);
    printStrategies(`handbook top_k ${topK}`, results);
    assert.ok(rho >= TARGET, `handbook top_k ${topK}: Spearman ${rho}`);
    assert.ok(assertOrdersAsRecall(`handbook top_k ${topK}`, results) > 0, "some strategies' recall differs significantly: the order is checked");
  }
});
