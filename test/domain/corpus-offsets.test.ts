import { test } from "node:test";
import assert from "node:assert/strict";
import { CorpusOffsets } from "../../src/domain/corpus-offsets.js";
import { precisionOmega, retrievalEfficiency, retrievalMetrics } from "../../src/domain/metrics.js";

const A = { id: "doc_a", text: "a".repeat(1000) };
const B = { id: "doc_b", text: "b".repeat(1000) };

test("pooled span metrics: a chunk of another document counts against precision and IoU, never towards recall", () => {
  const axis = new CorpusOffsets([A, B]);
  const reference = axis.place("doc_a", { start: 100, end: 200 });
  const own = axis.place("doc_a", { start: 100, end: 200 });
  // The same offsets in document B: on one document's axis this chunk would cover the reference.
  const distractor = axis.place("doc_b", { start: 100, end: 200 });
  const pooled = retrievalMetrics([reference], [own, distractor]);
  assert.equal(pooled.recall, 1);
  assert.equal(pooled.precision, 0.5, "the distractor's 100 characters are in the denominator");
  assert.equal(pooled.iou, 0.5);
  assert.equal(pooled.reciprocalRank, 1);

  const onlyDistractor = retrievalMetrics([reference], [distractor]);
  assert.deepEqual([onlyDistractor.recall, onlyDistractor.precision, onlyDistractor.hit], [0, 0, 0], "another document's text finds nothing");
  // Without the shared axis the distractor would score a perfect hit: the reason the axis exists.
  assert.equal(retrievalMetrics([{ start: 100, end: 200 }], [{ start: 100, end: 200 }]).recall, 1);
});

test("pooled span metrics: Precision_Ω only counts chunks of the reference's document; efficiency's floor is the whole collection", () => {
  const axis = new CorpusOffsets([A, B]);
  const reference = axis.place("doc_a", { start: 0, end: 100 });
  const units = [axis.place("doc_a", { start: 0, end: 200 }), axis.place("doc_b", { start: 0, end: 200 })];
  assert.equal(precisionOmega([reference], units), 0.5);
  assert.equal(axis.totalLength, 2001);
  // Retrieving every character of the collection scores 0; exactly the reference scores 1.
  assert.equal(retrievalEfficiency(100 / 2001, [reference], axis.totalLength), 0);
  assert.equal(retrievalEfficiency(1, [reference], axis.totalLength), 1);
  assert.throws(() => axis.place("doc_c", { start: 0, end: 1 }), /not part of this corpus/);
});
