import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveQuestions, validateQuestions } from "../../src/evaluators/questions.js";
import { locateExcerpt } from "../../src/text/locate-excerpt.js";
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

test("an excerpt copied with line-end hyphenation is found joined, as the same words; a real hyphen is not joined away", () => {
  const text = "Type checks pass before we compile the code. The well-known trick is kept.";
  for (const copied of ["we com-\npile the code", "we com- pile the code"]) {
    const found = locateExcerpt(text, copied)!;
    assert.equal(found.method, "words", copied);
    assert.equal(text.slice(found.start, found.end), "we compile the code");
  }
  // "well-known" has no white space after its hyphen: matched as written, not turned into "wellknown".
  assert.equal(locateExcerpt(text, "The well-known trick")?.method, "exact");
  assert.equal(locateExcerpt(text, "The well- known trick")?.method, "words");
  assert.equal(locateExcerpt(text, "we com- piled the code"), null, "joined, the words still differ");
  // A split word and a compound broken at a line end in one excerpt: the word joined, the compound kept.
  const paper = "The compiler emits trace-based code that we compile twice.";
  const both = locateExcerpt(paper, "emits trace-\nbased code that we com-\npile twice")!;
  assert.equal(both.method, "words");
  assert.equal(paper.slice(both.start, both.end), "emits trace-based code that we compile twice");
});
