import { test } from "node:test";
import assert from "node:assert/strict";
import { ValidationError } from "../../src/errors.js";
import { validateQuestions } from "../../src/evaluators/questions.js";

// A question may say which part of an evaluation set it belongs to (`split`: dev or heldout), so
// that a judge can be tuned on one half and checked on the other (questions/standard.json).

test("questions: an optional split is kept, trimmed, and absent when not given", () => {
  const [dev, heldout, none] = validateQuestions("q.json", [{ question: "A?", split: "dev" }, { question: "B?", split: " heldout " }, { question: "C?" }]);
  assert.equal(dev!.split, "dev");
  assert.equal(heldout!.split, "heldout");
  assert.ok(!("split" in none!), "no split key when the file gives none");
});

test("questions: a split that is not a non-empty string is refused, naming the item", () => {
  for (const split of ["", "  ", 3, null, ["dev"]]) {
    assert.throws(
      () => validateQuestions("q.json", [{ question: "Why?", split }]),
      (e: unknown) => e instanceof ValidationError && /q\.json: item 1 \("Why\?"\): "split" must be a non-empty string/.test(e.message),
      JSON.stringify(split),
    );
  }
  assert.throws(
    () => validateQuestions("q.json", [{ question: "Why?", fold: "dev" }]),
    /unknown field "fold" \(fields: question, expected_answer, references, split, answerable, leak, flag\)/,
  );
});
