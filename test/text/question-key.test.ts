import { test } from "node:test";
import assert from "node:assert/strict";
import { questionKey } from "../../src/text/question-key.js";

test("question key: the same question up to case and white space, white space before punctuation included", () => {
  assert.equal(questionKey("why did the speaker  stay at the club ?"), questionKey("Why did the speaker stay at the club?"));
  assert.equal(questionKey("What does it say ( briefly ) about rent ?"), questionKey("what does it say (briefly) about rent?"));
  assert.equal(questionKey("When does\tthe ferry\nleave?"), questionKey("When does the ferry leave?"));
  assert.notEqual(questionKey("Why did the speaker stay at the club?"), questionKey("Why did the speaker leave the club?"), "other words are another question");
  assert.notEqual(questionKey("Who stayed at the club?"), questionKey("Who stayed at the club"), "punctuation itself still counts");
});
