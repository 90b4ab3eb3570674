// The offline judge against span recall on the example corpus, examples/corpus (the shared
// harness and what it checks: test/helpers/ground-truth.ts).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { DENSE, SMALL_CHUNKS, assertOrdersAsRecall, benchAtEachTopK, correlation, groundTruthWorkspace, printStrategies } from "../helpers/ground-truth.js";
import type { Workspace } from "../helpers/workspace.js";

let ws: Workspace;
before(async () => (ws = await groundTruthWorkspace()));
after(() => ws.cleanup());

/**
 * Below the target of the handbook and the standard on purpose: on this corpus the judge was
 * measured, not tuned, until the caps of 28 November 2026 were chosen seeing its figures (0.45-0.52
 * at top_k 1, 0.48-0.57 at top_k 5 depending on the variants), and
 * its questions are worded far from the text, the lexical judge's weak ground. A floor that catches
 * a judge falling back to the earlier caps (0.27 / 0.34) or worse.
 */
const EXAMPLE_CORPUS_FLOOR = 0.4;

test("context relevance on the example corpus (questions in a reader's own words): Spearman printed, above a floor; strategies order as recall", async () => {
  const folder = "examples/corpus";
  const files = readdirSync(folder).map((filename) => ({ filename, bytes: readFileSync(`${folder}/${filename}`) }));
  let orderChecks = 0;
  const runs = await benchAtEachTopK(
    ws,
    { collection: { name: "example-corpus", add: files } },
    "questions/corpus.json",
    "example corpus",
    [...DENSE, ...SMALL_CHUNKS],
    4,
  );
  for (const [topK, results] of runs.byTopK) {
    const { rho, pairs } = correlation(results, () => true);
    console.log(`# example corpus top_k ${topK}: spearman(context relevance, recall) = ${rho.toFixed(3)} over ${pairs} (variant, question) pairs`);
    printStrategies(`example corpus top_k ${topK}`, results);
    assert.ok(rho >= EXAMPLE_CORPUS_FLOOR, `example corpus top_k ${topK}: Spearman ${rho}`);
    orderChecks += assertOrdersAsRecall(`example corpus top_k ${topK}`, results);
  }
  assert.ok(orderChecks > 0, "some strategies' recall differs significantly: the order is checked");
});
