import { test } from "node:test";
import assert from "node:assert/strict";
import { locateExcerpt, resolveQuestions, validateQuestions } from "../../src/evaluators/questions.js";
import { matchExcerpt } from "../../src/text/excerpt-match.js";

const DOCUMENT = "The speaker paused. “I’ve read the ﬁnal report — all 40\u00a0pages… twice,” she said; the oﬃce agreed.";

test("excerpts match through typographic variants: quotes, apostrophes, dashes, non-breaking spaces, ligatures, ellipsis", () => {
  const typed = ["I've read", '"I\'ve read the final report - all 40 pages... twice,"', "final report -- all 40 pages", "the office agreed"];
  for (const excerpt of typed) {
    const found = locateExcerpt(DOCUMENT, excerpt);
    assert.equal(found?.method, "normalised", excerpt);
    const match = matchExcerpt(DOCUMENT, excerpt);
    assert.deepEqual([match?.method, match?.start, match?.end], ["normalised", found!.start, found!.end], excerpt);
  }
  const quoted = locateExcerpt(DOCUMENT, typed[1]!)!;
  assert.equal(DOCUMENT.slice(quoted.start, quoted.end), "“I’ve read the ﬁnal report — all 40\u00a0pages… twice,”", "the quotes are part of the span");
  assert.equal(DOCUMENT.slice(locateExcerpt(DOCUMENT, "I've")!.start, locateExcerpt(DOCUMENT, "I've")!.end), "I’ve");

  // Typography is forgiven, words are not: a changed number or word is not the same excerpt.
  assert.equal(locateExcerpt(DOCUMENT, "all 41 pages"), null);
  assert.equal(locateExcerpt(DOCUMENT, "I have read"), null);

  const [question] = resolveQuestions(
    "q.json",
    validateQuestions("q.json", [{ question: "What did she read?", references: ["I've read the final report"] }]),
    DOCUMENT,
  );
  assert.equal(question!.references[0]!.located, "normalised", "counted as found as written up to typography, not as a words-only match");
});
