import { test } from "node:test";
import assert from "node:assert/strict";
import { fixed, signedFixed } from "../../src/domain/number-words.js";

test("numbers that round to nothing have no sign; changes carry theirs", () => {
  assert.equal(fixed(-0.001), "0.00");
  assert.equal(fixed(-0.0004, 3), "0.000");
  assert.equal(fixed(-0.006), "-0.01");
  assert.equal(signedFixed(-0.001), "+0.00");
  assert.equal(signedFixed(0.25), "+0.25");
  assert.equal(signedFixed(-1.104, 2), "-1.10");
});
