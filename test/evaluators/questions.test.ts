import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadQuestionsFile, resolveQuestions, validateQuestions } from "../../src/evaluators/questions.js";
import { parseDocument } from "../../src/parsers/parser.js";
import { ValidationError } from "../../src/errors.js";
import { readFileSync } from "node:fs";
import { handbookBytes, SITE_VISIT_PATH } from "../helpers/documents.js";

const dir = mkdtempSync(join(tmpdir(), "chunkeval-questions-"));
const item = { question: "When are board elections held?", expected_answer: "Every March.", references: [{ text: "Board elections are held every March" }] };

test("questions files load from JSON, JSONL and YAML", async () => {
  writeFileSync(join(dir, "q.json"), JSON.stringify([item]));
  writeFileSync(join(dir, "q.jsonl"), JSON.stringify(item) + "\n\n" + JSON.stringify({ question: "Second?" }) + "\n");
  writeFileSync(
    join(dir, "q.yaml"),
    "questions:\n  - question: When are board elections held?\n    references:\n      - Board elections are held every March\n",
  );
  assert.equal((await loadQuestionsFile(join(dir, "q.json")))[0]!.expectedAnswer, "Every March.");
  assert.deepEqual(
    (await loadQuestionsFile(join(dir, "q.jsonl"))).map((q) => q.question),
    ["When are board elections held?", "Second?"],
  );
  assert.deepEqual((await loadQuestionsFile(join(dir, "q.yaml")))[0]!.references, [{ text: "Board elections are held every March" }]);
});

test("every bundled questions file locates all its references in its example", async () => {
  const doc = await parseDocument(handbookBytes(), "harbor-light-handbook.docx");
  const questions = resolveQuestions("harbor-light-handbook.json", await loadQuestionsFile("questions/harbor-light-handbook.json"), doc.text);
  assert.ok(questions.length >= 20);
  for (const q of questions) for (const r of q.references) assert.equal(doc.text.slice(r.start, r.end), r.text);
  const visit = await parseDocument(readFileSync(SITE_VISIT_PATH), "greyhill-site-visit.doc");
  const visitQuestions = resolveQuestions("greyhill-site-visit.json", await loadQuestionsFile("questions/greyhill-site-visit.json"), visit.text);
  assert.equal(visitQuestions.length, 5);
});

test("offsets are found exactly, then ignoring white space, and given offsets are checked", () => {
  const text = "Alpha beta.\n\nGamma   delta epsilon.";
  const [q] = resolveQuestions("f", validateQuestions("f", [{ question: "q", references: ["Gamma delta"], expected_answer: null }]), text);
  assert.deepEqual(q!.references[0], { text: "Gamma delta", start: 13, end: 26, documentId: "", located: "normalised" });
  const [given] = resolveQuestions("f", validateQuestions("f", [{ question: "q", references: [{ text: "beta", start: 6, end: 10 }] }]), text);
  assert.deepEqual(given!.references[0], { text: "beta", start: 6, end: 10, documentId: "", located: "offsets" });
  assert.throws(
    () => resolveQuestions("f", validateQuestions("f", [{ question: "q", references: [{ text: "zeta", start: 0, end: 4 }] }]), text),
    /the text at 0-4 does not match the excerpt, which is not in the document either/,
  );
});

test("references copied from a source with markup or other typography are found as the same words; offsets into the source are relocated", () => {
  // The extracted text of a Markdown file: markup stripped, curly apostrophe as the author typed it.
  const text =
    "Lamp service\n\nThe harbour lamp is serviced every March by the coastal trust; see the rules.\n\n" +
    "I’ve kept the keys in the blue ledger since 2019. The deposit is 15 euros.";
  const items = validateQuestions("q.json", [
    { question: "When?", references: ["The harbour **lamp** is serviced every _March_ by the coastal trust; see the [rules](http://example.com/rules)."] },
    { question: "Keys?", references: ["I've kept the keys in the blue ledger since 2019."] },
    // Offsets into the Markdown source ("# Lamp service\n\n" is 16 characters, not 14): relocated near them.
    { question: "Who?", references: [{ text: "by the coastal trust", start: 62, end: 82 }] },
  ]);
  const [markup, quote, offsets] = resolveQuestions("q.json", items, text);
  assert.equal(markup!.references[0]!.located, "words");
  const markupRef = markup!.references[0]!;
  assert.equal(text.slice(markupRef.start, markupRef.end), "The harbour lamp is serviced every March by the coastal trust; see the rules");
  assert.equal(markupRef.text, text.slice(markupRef.start, markupRef.end), "the reference is the document's own text");
  // Typography alone (a straight apostrophe for the document's curly one) is found as written up to it, punctuation and all.
  assert.equal(quote!.references[0]!.located, "normalised");
  assert.equal(text.slice(quote!.references[0]!.start, quote!.references[0]!.end), "I’ve kept the keys in the blue ledger since 2019.");
  assert.deepEqual(
    [offsets!.references[0]!.located, text.slice(offsets!.references[0]!.start, offsets!.references[0]!.end)],
    ["relocated", "by the coastal trust"],
  );
  // Not the same words: a changed number, an added negation, another order. None is taken for the reference.
  for (const wrong of [
    "The deposit is 50 euros.",
    "I’ve not kept the keys in the blue ledger since 2019.",
    "The keys I’ve kept in the blue ledger since 2019.",
  ]) {
    assert.throws(
      () => resolveQuestions("q.json", validateQuestions("q.json", [{ question: "q", references: [wrong] }]), text),
      /excerpt not found in the document/,
      wrong,
    );
  }
});

test("a 1,000-character excerpt with markup is found by its words among 200 documents of 30 KB, in the right one", () => {
  const documents = Array.from({ length: 200 }, (_, d) => ({
    id: `doc_${d}`,
    filename: `d${d}.md`,
    text: Array.from({ length: 600 }, (_, i) => `Clause ${d}.${i} sets the fee at ${(d * 7 + i) % 97} euros for item ${i}.`).join(" "),
  }));
  const passage = documents[137]!.text
    .slice(9000, 10000)
    .replace(/^\S*\s/, "")
    .replace(/\s\S*$/, "");
  const marked = passage.replace(/fee/g, "**fee**").replace(/euros/g, "_euros_");
  const [q] = resolveQuestions(
    "q.json",
    validateQuestions(
      "q.json",
      Array.from({ length: 30 }, () => ({ question: "q", references: [marked] })),
    ),
    documents,
  );
  assert.equal(q!.references[0]!.documentId, "doc_137");
  assert.equal(q!.references[0]!.located, "words");
});

test("invalid files get errors naming the item and field", async () => {
  const cases: Array<[unknown, RegExp]> = [
    [{}, /expected a list of questions/],
    [[], /has no questions/],
    [[{ question: "" }], /item 1: "question" must be a non-empty string/],
    [[item, { question: "Why?", expected_answer: 3 }], /item 2 \("Why\?"\): "expected_answer" must be a string/],
    [[{ question: "Why?", references: [{ start: 1 }] }], /item 1 \("Why\?"\): references\[0\]: must be a string or \{document\?, text, start\?, end\?\}/],
    [[{ question: "Why?", references: [{ text: "x", start: 1 }] }], /give both start and end/],
    [[{ question: "Why?", answer: "x" }], /unknown field "answer"/],
  ];
  for (const [items, message] of cases)
    assert.throws(
      () => validateQuestions("q.json", items),
      (e: unknown) => e instanceof ValidationError && message.test(e.message),
    );
  const doc = "Nothing relevant here.";
  assert.throws(
    () => resolveQuestions("q.json", validateQuestions("q.json", [item]), doc),
    /q\.json: item 1 \("When are board elections held\?"\): references\[0\]: excerpt not found in the document/,
  );
  writeFileSync(join(dir, "bad.json"), "[{");
  await assert.rejects(loadQuestionsFile(join(dir, "bad.json")), /bad\.json: not valid JSON/);
  writeFileSync(join(dir, "bad.jsonl"), '{"question": "a"}\n{oops\n');
  await assert.rejects(loadQuestionsFile(join(dir, "bad.jsonl")), /bad\.jsonl: line 2/);
  await assert.rejects(loadQuestionsFile(join(dir, "missing.json")), /missing\.json: cannot read the questions file \(ENOENT\)/);
});

test("words keep their marks: a decomposed accent or a vowel sign is part of the word, and a word without it is another word", () => {
  const composed = "Le résumé du projet est prêt. Elle a pris un café noir.";
  const decomposed = composed.normalize("NFD");
  for (const text of [composed, decomposed]) {
    const [q] = resolveQuestions("q.json", validateQuestions("q.json", [{ question: "q", references: ["**Le résumé** du projet"] }]), text);
    const ref = q!.references[0]!;
    assert.equal(text.slice(ref.start, ref.end).normalize("NFC"), "Le résumé du projet", "the span ends after the last mark");
    assert.throws(() => resolveQuestions("q.json", validateQuestions("q.json", [{ question: "q", references: ["un *cafe* noir"] }]), text), /not found/);
  }
  assert.throws(
    () => resolveQuestions("q.json", validateQuestions("q.json", [{ question: "q", references: ["वह मिला"] }]), "यह मेला है। वह मेला बड़ा था।"),
    /not found/,
  );
});
