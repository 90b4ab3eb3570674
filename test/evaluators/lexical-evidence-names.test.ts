import { test } from "node:test";
import assert from "node:assert/strict";
import { createLexicalEvidence, MISSING_NAME_FACTOR } from "../../src/evaluators/lexical-evidence.js";

// A document of look-alike sections (one per reservoir, named once) about one water company, whose name most sentences hold.
const RESERVOIRS = ["Toll Bar", "Kingsway", "Ashby", "Hollin", "Marsh End", "Cragg", "Penn", "Sowerby", "Tarn", "Wick"];
const DOCUMENT = RESERVOIRS.flatMap((name, i) => [
  `The ${name} reservoir was last cleaned in May ${2015 + i}.`,
  `Fenmoor Water inspects its inlet valves every week.`,
  `Fenmoor Water samples its outlet for chlorine daily.`,
  `The site has a fenced perimeter and a locked gate.`,
  `Fenmoor Water keeps its site records for six years.`,
  `Its overflow is checked after heavy rain.`,
]).join(" ");

test("context relevance (lexical evidence): a name that picks out one look-alike section is required of the context; the document's own name is not", () => {
  const relevance = createLexicalEvidence();
  const question = "When did Fenmoor last clean the Toll Bar reservoir?";
  const tollBar = "The Toll Bar reservoir was last cleaned in May 2015.";
  const kingsway = "The Kingsway reservoir was last cleaned in May 2016.";
  // "Fenmoor" is in half the document's sentences: it tells no section apart, and the answer does not need it.
  assert.equal(relevance(question, [tollBar], DOCUMENT), 10);
  // The same words about another reservoir: halved for lacking "Toll Bar", against the same question without capitals (no name).
  const unnamed = relevance(question.replace("Toll Bar", "toll bar"), [kingsway], DOCUMENT);
  const named = relevance(question, [kingsway], DOCUMENT);
  assert.ok(unnamed > 0 && unnamed < 10, `some evidence without the name: ${unnamed}`);
  assert.ok(Math.abs(named - unnamed * MISSING_NAME_FACTOR) < 1e-9, `look-alike section: ${named} against ${unnamed}`);
});
