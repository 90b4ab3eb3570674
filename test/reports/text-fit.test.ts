import { test } from "node:test";
import assert from "node:assert/strict";
import { shortenToWidth, textWidth, wrapLines } from "../../src/reports/text-fit.js";

test("chart text fitting: keys wrap between their parameters, every line within the width; cut text ends in an ellipsis", () => {
  const key = "fixed_size@chunk_size=288:chunk_overlap=16:retrieval=keyword";
  const lines = wrapLines(key, 213, 11);
  assert.deepEqual(lines, ["fixed_size@chunk_size=288:", "chunk_overlap=16:", "retrieval=keyword"]);
  assert.ok(lines.every((l) => textWidth(l, 11) <= 213));
  assert.deepEqual(wrapLines(key, 2000, 11), [key], "a key that fits stays on one line");
  // A parameter wider than the line breaks after its "_", not between two letters of a word.
  const long = "semantic_parent_child@breakpoint_percentile=80:child_size=64";
  assert.deepEqual(wrapLines(long, 213, 11), ["semantic_parent_child@", "breakpoint_percentile=80:", "child_size=64"]);
  assert.deepEqual(wrapLines(long, 100, 11), ["semantic_", "parent_child@", "breakpoint_", "percentile=80:", "child_size=64"]);
  assert.ok(wrapLines(long, 100, 11).every((l) => textWidth(l, 11) <= 100));
  // Narrower still: after a "=" only where the part after a "_" is too wide; a value stays beside its name where it fits.
  assert.deepEqual(wrapLines(long, 80, 11), ["semantic_", "parent_", "child@", "breakpoint_", "percentile=", "80:", "child_", "size=64"]);
  // Titles break at spaces; a word wider than the line is cut between characters.
  assert.deepEqual(wrapLines("Composite score per strategy", 160, 13, true), ["Composite score", "per strategy"]);
  const word = wrapLines("x".repeat(40), 100, 11);
  assert.equal(word.join(""), "x".repeat(40));
  assert.ok(word.length > 1 && word.every((l) => textWidth(l, 11) <= 100));
  assert.equal(shortenToWidth("short", 100, 11), "short");
  const cut = shortenToWidth(`n/a — ${"answers are copied from the retrieved context ".repeat(3)}`, 300, 11);
  assert.ok(cut.endsWith("…") && textWidth(cut, 11) <= 300);
  // Wide characters count more than narrow ones.
  assert.ok(textWidth("m=@", 11) > textWidth("il:", 11) * 2);
});
