import { test } from "node:test";
import assert from "node:assert/strict";
import { isRareInEnglish, wordLogProbability } from "../../src/text/english-rarity.js";

test("english rarity: everyday words are common, names of far-off subjects rare (the use tokenizer's unigram model)", () => {
  for (const word of ["front", "towards", "necessary", "ordinary", "degrees", "price", "electricity", "salary", "someone"]) {
    assert.equal(isRareInEnglish(word), false, `${word}: ${wordLogProbability(word)}`);
  }
  for (const word of ["harpsichord", "dormice", "hibernation", "tuning", "porcelain", "celsius"]) assert.equal(isRareInEnglish(word), true, word);
  // A word that is one piece scores that piece; one made of several sums them, so a longer rarer word scores lower.
  assert.ok(wordLogProbability("the") > wordLogProbability("front"));
  assert.ok(wordLogProbability("harpsichord") < wordLogProbability("tuning"));
  assert.ok(Number.isFinite(wordLogProbability("zzqxj")));
});
