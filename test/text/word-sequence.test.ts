import { test } from "node:test";
import assert from "node:assert/strict";
import { WordSequence } from "../../src/text/word-sequence.js";

const found = (text: string, excerpt: string) => new WordSequence(text).find(excerpt).map((s) => text.slice(s.start, s.end));

test("superscripts and subscripts never merge into the digits next to them: 10² is not 102, H₂O is not H2O", () => {
  const text = "The tank holds 102 litres. The error is 10² at most. Water is H₂O, not H2O2. The 1ª edición.";
  assert.deepEqual(found(text, "holds 102 litres"), ["holds 102 litres"]);
  assert.deepEqual(found(text, "102"), ["102"]);
  assert.deepEqual(found(text, "10²"), ["10²"]);
  assert.deepEqual(found(text, "error is 102"), []);
  assert.deepEqual(found(text, "H2O"), []);
  assert.deepEqual(found(text, "Water is H₂O"), ["Water is H₂O"]);
  assert.deepEqual(found(text, "1a edición"), []);
});

test("compatibility forms still match their plain letters: ligatures, full-width forms, case", () => {
  const text = "The ﬁnal ＲＥＰＯＲＴ was ﬂawless; ＡＢＣ１２３ filed.";
  assert.deepEqual(found(text, "final report"), ["ﬁnal ＲＥＰＯＲＴ"]);
  assert.deepEqual(found(text, "was flawless"), ["was ﬂawless"]);
  assert.deepEqual(found(text, "abc123 filed"), ["ＡＢＣ１２３ filed"]);
  assert.deepEqual(found("x² ﬁnal", "x² final"), ["x² ﬁnal"]);
});
