import { test } from "node:test";
import assert from "node:assert/strict";
import { wordLogProbability } from "../../src/text/english-rarity.js";

test("english rarity: everyday words are common, names of far-off subjects rare (the use tokenizer's unigram model)", () => {
  const common = ["front", "towards", "necessary", "ordinary", "degrees", "price", "electricity", "salary", "someone"];
  const rare = ["harpsichord", "dormice", "hibernation", "tuning", "porcelain", "celsius"];
  const rarestCommon = Math.min(...common.map(wordLogProbability));
  for (const word of rare) assert.ok(wordLogProbability(word) < rarestCommon, `${word}: ${wordLogProbability(word)} against ${rarestCommon}`);
  // A word that is one piece scores that piece; one made of several sums them, so a longer rarer word scores lower.
  assert.ok(wordLogProbability("the") > wordLogProbability("front"));
  assert.ok(wordLogProbability("harpsichord") < wordLogProbability("tuning"));
  assert.ok(Number.isFinite(wordLogProbability("zzqxj")));
  // A character outside the Basic Multilingual Plane (two UTF-16 units) is one unknown character, as one inside it is.
  assert.equal(wordLogProbability("x\u{1D49C}"), wordLogProbability("x\uA66E"));
});
