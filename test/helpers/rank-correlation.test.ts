import { test } from "node:test";
import assert from "node:assert/strict";
import { spearman } from "./rank-correlation.js";

// The rank correlation that scripts/bench-standard.ts prints for the judge's scores against span recall.

test("spearman: 1 for the same order, -1 for the reverse, ties share their rank, null for a constant series", () => {
  assert.equal(spearman([1, 2, 3, 4], [10, 20, 30, 400]), 1);
  assert.equal(spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1);
  // Ranks [1.5, 1.5, 3, 4] against [1, 2, 3, 4]: r = 4.5 / sqrt(4.5 * 5).
  assert.ok(Math.abs(spearman([0, 0, 1, 2], [1, 2, 3, 4])! - 4.5 / Math.sqrt(4.5 * 5)) < 1e-12);
  assert.equal(spearman([1, 1, 1], [1, 2, 3]), null);
  assert.throws(() => spearman([1, 2], [1]), /2 against 1 values/);
});
