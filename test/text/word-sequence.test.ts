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

test("an excerpt cut inside its first or last word (a reference cut at a fixed length) is found, covering just the cut parts", () => {
  const text = "the simultaneous (or nearly simultaneous) infection of humans and swine by a virus";
  // Published with its line break and cut inside "swine": the words match but the last is a prefix.
  assert.deepEqual(found(text, "the simultaneous (or nearly simultaneous) infection\nof humans and swin"), [
    "the simultaneous (or nearly simultaneous) infection of humans and swin",
  ]);
  assert.deepEqual(found(text, "multaneous) infection of humans"), ["multaneous) infection of humans"]);
  // Whole words win where they occur: the cut form is tried only when no whole-word match exists.
  assert.deepEqual(found(text, "infection of humans and swine"), ["infection of humans and swine"]);
  // A cut word must still be the start (or end) of a word there, and the words in between whole.
  assert.deepEqual(found(text, "infection of human and swin"), []);
  assert.deepEqual(found(text, "infection of humans and wine"), []);
  // Too few words to try cut edges: "and swin" alone would match too much.
  assert.deepEqual(found(text, "humans and swin"), []);
});

test("an R assignment arrow is not an HTML tag: the words after '<-' are kept", () => {
  const text = "Three useful forms are > df <- data.frame(a = I(1)) > write.table(df) and more.";
  assert.equal(new WordSequence(text).find("forms are\n> df <- data.frame(a = I(1))\n> write.table(df)").length, 1);
});
