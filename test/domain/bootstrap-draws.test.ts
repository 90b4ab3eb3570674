import { test } from "node:test";
import assert from "node:assert/strict";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, bootstrap, seededRandom } from "../../src/domain/statistics.js";

/** The resamples as bootstrap drew them before it kept its draws: a fresh generator from the seed on every call. */
function drawnAfresh(n: number): number[][] {
  const random = seededRandom(BOOTSTRAP_SEED);
  return Array.from({ length: BOOTSTRAP_RESAMPLES }, () => Array.from({ length: n }, () => Math.floor(random() * n)));
}

test("bootstrap resamples the same indices as a fresh draw from its seed, whatever ran before it and however many questions", () => {
  // 600 questions is past what is kept (1.2 million indices): drawn as the call goes. The counts
  // repeat and interleave past the number kept (8), so kept, let go and drawn-again draws are all compared.
  const counts = [1, 7, 30, 600, 30, 2, 3, 4, 5, 6, 8, 9, 7, 1, 600];
  for (const n of counts) {
    const seen: number[][] = [];
    bootstrap(n, (indices) => (seen.push([...indices]), null));
    assert.deepEqual(seen, drawnAfresh(n), `${n} questions`);
  }
});
