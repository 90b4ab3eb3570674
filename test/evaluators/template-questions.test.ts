import { test } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../src/parsers/parser.js";
import { templateQuestions } from "../../src/evaluators/template-questions.js";

test("template questions name each topic word once, whatever its case or inflection", async () => {
  // "Oven" and "oven" are the section's most frequent word twice over (recipes.md gave "… say about oven and oven?").
  const markdown = ["# Winter Kitchen", "Oven temperatures are for a conventional oven; reduce by twenty degrees for a fan oven."].join("\n\n");
  const parsed = await parseDocument(Buffer.from(markdown), "kitchen.md");
  const [question] = templateQuestions(parsed.text, parsed.blocks, 1);
  assert.ok(question, "one section, one question");
  const about = /say about (.+)\?$/.exec(question.question);
  assert.ok(about, question.question);
  assert.equal(about[1], "oven and temperatures", question.question);
});
