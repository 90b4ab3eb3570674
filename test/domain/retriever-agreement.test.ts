// Issue 36 item 4: with the same chunks searched several ways (--retrievers), the verdict says
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
// whether the winner holds under each retriever, with the pooled verdict's significance rule.
import { test } from "node:test";
import assert from "node:assert/strict";
import { aggregate } from "../../src/domain/aggregate.js";
import { defaultWeights } from "../../src/domain/scoring.js";
import { chunksKey, outcomesByRetriever, retrieverAgreementNote } from "../../src/domain/retriever-agreement.js";
import type { QuestionResult } from "../../src/domain/experiment.js";
import type { SearchMode } from "../../src/domain/variant-key.js";
import { questionResult } from "../helpers/question-result.js";

const scoring = { metrics: BUILT_IN_METRICS, weights: defaultWeights(BUILT_IN_METRICS), hallucinationThreshold: 5, unmeasurable: {} };
const result = (recall: number) => questionResult({ recall, reciprocalRank: recall });
const base = Array.from({ length: 30 }, (_, i) => result(i % 3 === 0 ? 0 : 1));
const better = base.map((r) => result(Math.min(1, r.metrics.recall! + 0.5)));
const barelyBetter = base.map((r, i) => (i === 0 ? result(1) : r));

function outcomes(runs: Record<string, [SearchMode, QuestionResult[]]>) {
  const results = Object.fromEntries(Object.entries(runs).map(([k, [, r]]) => [k, r]));
  const aggregates = Object.fromEntries(Object.entries(results).map(([k, r]) => [k, aggregate(r, { ...scoring, costUsd: 0 })]));
  const search = Object.fromEntries(Object.entries(runs).map(([k, [mode]]) => [k, { retrieval: mode }]));
  return outcomesByRetriever(results, aggregates, search, scoring);
}

test("the chunks a variant searches, whatever the retriever: its key without retrieval", () => {
  assert.equal(chunksKey("structure@retrieval=dense"), "structure");
  assert.equal(chunksKey("recursive@chunk_size=128:retrieval=hybrid:top_k=3"), "recursive@chunk_size=128:top_k=3");
  assert.equal(chunksKey("semantic"), "semantic");
});

test("the same winner under every retriever is said to hold; named by its chunks, not its variant key", async () => {
  const found = (await outcomes({
    structure: ["keyword", better],
    recursive: ["keyword", base],
    "structure@retrieval=dense": ["dense", better],
    "recursive@retrieval=dense": ["dense", base],
  }))!;
  assert.deepEqual(
    found.map((o) => [o.value, o.highest, o.winner]),
    [
      ["dense", "structure", "structure"],
      ["keyword", "structure", "structure"],
    ],
  );
  assert.equal(
    retrieverAgreementNote(found),
    "The chunking verdict holds across retrievers: structure wins under each of dense and keyword (each lead significant at 95 %).",
  );
});

test("different winners under different retrievers: the verdict depends on the retriever, and says which wins where", async () => {
  const found = (await outcomes({
    structure: ["keyword", better],
    recursive: ["keyword", base],
    "structure@retrieval=hybrid": ["hybrid", better],
    "recursive@retrieval=hybrid": ["hybrid", base],
    "structure@retrieval=dense": ["dense", base],
    "recursive@retrieval=dense": ["dense", better],
  }))!;
  assert.equal(
    retrieverAgreementNote(found),
    "Across retrievers the chunking verdict depends on the retriever: recursive wins under dense; structure wins under keyword and hybrid.",
  );
});

test("a lead within noise under one retriever is no win there, even when the same strategy scores highest everywhere", async () => {
  const found = (await outcomes({
    structure: ["keyword", better],
    recursive: ["keyword", base],
    "structure@retrieval=dense": ["dense", barelyBetter],
    "recursive@retrieval=dense": ["dense", base],
  }))!;
  assert.deepEqual(
    found.map((o) => o.winner),
    [null, "structure"],
  );
  assert.equal(
    retrieverAgreementNote(found),
    "Across retrievers structure scores highest under every retriever, but its lead is not significant under all of them: " +
      "structure wins under keyword; under dense, no lead is significant at 95 % (structure scored highest).",
  );
});

test("no lead significant under any retriever: said so, with who scored highest where, never that the verdict depends on the retriever", async () => {
  const found = (await outcomes({
    structure: ["keyword", barelyBetter],
    recursive: ["keyword", base],
    "structure@retrieval=dense": ["dense", base],
    "recursive@retrieval=dense": ["dense", barelyBetter],
  }))!;
  assert.equal(
    retrieverAgreementNote(found),
    "Across retrievers no lead is significant at 95 % under any of them: the highest composite was recursive under dense; structure under keyword.",
  );
});

test("nothing to compare: one retriever, or a retriever that searched a single variant", async () => {
  assert.equal(await outcomes({ structure: ["keyword", better], recursive: ["keyword", base] }), null);
  assert.equal(await outcomes({ structure: ["keyword", better], recursive: ["keyword", base], "recursive@retrieval=dense": ["dense", base] }), null);
});
