import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ParsedDocument } from "../../src/domain/types.js";
import { loadQuestionsFile, resolveQuestions } from "../../src/evaluators/questions.js";
import { parseDocument } from "../../src/parsers/parser.js";
import { contentTerms } from "../../src/text/terms.js";
import { STANDARD_FILES, buildPart1Pdf, buildPart2Docx, buildPart3Markdown, buildPart4Html, buildQuestionsJson } from "../../examples/build-standard.js";

// The second evaluation corpus (examples/standard/, questions/standard.json; docs/examples.md "Examples and
// questions"): long, technical, dense with figures and look-alike clauses, in four formats, with
// questions whose references are exact excerpts, some of them needing two sections.

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const DIR = root("examples/standard");
const QUESTIONS = root("questions/standard.json");
/** A page of a technical standard, for the page count: the usual 400 words. */
const WORDS_PER_PAGE = 400;

async function parsedStandard(): Promise<Array<{ filename: string; parsed: ParsedDocument }>> {
  return Promise.all(
    Object.values(STANDARD_FILES).map(async (filename) => ({ filename, parsed: await parseDocument(readFileSync(join(DIR, filename)), filename) })),
  );
}

const wordsIn = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

test("standard corpus: four parts in four formats, over 60 pages of text with headings and tables, built from examples/content", async () => {
  const docs = await parsedStandard();
  assert.deepEqual(docs.map((d) => d.parsed.format).sort(), ["docx", "html", "md", "pdf"]);
  let words = 0;
  for (const { filename, parsed } of docs) {
    words += wordsIn(parsed.text);
    const kinds = new Set(parsed.blocks.map((b) => b.kind));
    assert.ok(kinds.has("heading"), `${filename} has headings`);
    assert.ok(parsed.blocks.filter((b) => b.kind === "heading").length >= 25, `${filename} has many clauses`);
    // The PDF's table rows are lines of cells, which its parser reads as paragraphs; the other formats mark them as rows.
    if (parsed.format !== "pdf") assert.ok(parsed.blocks.filter((b) => b.kind === "table_row").length >= 20, `${filename} has tables`);
  }
  console.log(`# ${words} words: ${(words / WORDS_PER_PAGE).toFixed(1)} pages at ${WORDS_PER_PAGE} words a page`);
  assert.ok(words >= 60 * WORDS_PER_PAGE, `${words} words`);
  const pdf = docs.find((d) => d.parsed.format === "pdf")!.parsed;
  assert.ok(Math.max(...pdf.blocks.map((b) => b.page ?? 0)) >= 15, "the PDF part alone runs to 15 pages or more");
  assert.ok(new Set(pdf.blocks.filter((b) => b.kind === "heading").map((b) => b.level)).size >= 3, "title, clauses and sub-clauses are set in three sizes");

  // The committed files are what examples/build-standard.ts makes of examples/content/ (npm run examples:standard:build).
  const stale = (name: string) => `${name} is stale: run npm run examples:standard:build`;
  assert.ok(buildPart1Pdf().equals(readFileSync(join(DIR, STANDARD_FILES.part1))), stale(STANDARD_FILES.part1));
  const docx = docs.find((d) => d.filename === STANDARD_FILES.part2)!;
  assert.equal((await parseDocument(await buildPart2Docx(), docx.filename)).text, docx.parsed.text, stale(STANDARD_FILES.part2));
  assert.equal(buildPart3Markdown(), readFileSync(join(DIR, STANDARD_FILES.part3), "utf8"), stale(STANDARD_FILES.part3));
  assert.equal(buildPart4Html(), readFileSync(join(DIR, STANDARD_FILES.part4), "utf8"), stale(STANDARD_FILES.part4));
  assert.equal(buildQuestionsJson(), readFileSync(QUESTIONS, "utf8"), stale("questions/standard.json"));
});

test("standard corpus: 60+ questions, each reference an exact excerpt found once in the document it names, 10+ needing two sections", async () => {
  const docs = await parsedStandard();
  const items = await loadQuestionsFile(QUESTIONS);
  assert.ok(items.length >= 60, `${items.length} questions`);
  const corpus = docs.map((d, i) => ({ id: `doc${i}`, filename: d.filename, text: d.parsed.text }));
  // Throws, naming the question and the excerpt, when a reference is not in the document it names.
  const questions = resolveQuestions("standard.json", items, corpus);
  for (const [i, q] of questions.entries()) {
    assert.ok(q.expectedAnswer, `an expected answer for "${q.question}"`);
    for (const [r, ref] of q.references.entries()) {
      assert.equal(ref.located, "exact", `"${q.question}": reference ${r} is found as written`);
      const text = corpus.find((d) => d.id === ref.documentId)!.text;
      // Found once: a look-alike row of another table cannot be the one located.
      assert.equal(text.indexOf(ref.text), text.lastIndexOf(ref.text), `"${q.question}": reference ${r} occurs once in ${items[i]!.references[r]!.document}`);
    }
  }
  for (const { filename } of docs) {
    const count = items.filter((i) => i.references.some((r) => r.document === filename)).length;
    assert.ok(count >= 10, `${count} questions on ${filename}`);
  }

  // The section of a reference: its document and the last heading before it.
  const sectionOf = (documentId: string, start: number) => {
    const blocks = docs[Number(documentId.slice(3))]!.parsed.blocks.filter((b) => b.kind === "heading" && b.start <= start);
    return `${documentId}:${blocks[blocks.length - 1]?.text}`;
  };
  const twoSections = questions.filter((q) => new Set(q.references.map((r) => sectionOf(r.documentId, r.start))).size >= 2);
  const twoDocuments = questions.filter((q) => new Set(q.references.map((r) => r.documentId)).size >= 2);
  console.log(`# ${questions.length} questions; ${twoSections.length} need two sections, ${twoDocuments.length} of them two documents`);
  assert.ok(twoSections.length >= 10, `${twoSections.length} questions need two sections`);
  assert.ok(twoDocuments.length >= 5, `${twoDocuments.length} questions need two documents`);
});

test("standard corpus: every question is in the dev or the heldout half, about half each", async () => {
  const items = await loadQuestionsFile(QUESTIONS);
  const dev = items.filter((i) => i.split === "dev").length;
  const heldout = items.filter((i) => i.split === "heldout").length;
  console.log(`# splits: ${dev} dev, ${heldout} heldout`);
  assert.equal(dev + heldout, items.length, "every question has a split");
  assert.ok(Math.abs(dev - heldout) <= 1, `${dev} dev against ${heldout} heldout`);
  // Drawn, not picked: both halves hold single- and multi-reference questions.
  for (const split of ["dev", "heldout"])
    assert.ok(
      items.some((i) => i.split === split && i.references.length > 1),
      `${split} has multi-reference questions`,
    );
});

test("standard corpus: questions paraphrase their excerpts instead of copying them", async () => {
  const items = await loadQuestionsFile(QUESTIONS);
  // The share of a question's content words (stemmed, stop words left out) that its excerpts also contain.
  const leak = items.map((item) => {
    const excerpt = new Set(item.references.flatMap((r) => contentTerms(r.text)));
    const terms = contentTerms(item.question);
    return terms.filter((t) => excerpt.has(t)).length / terms.length;
  });
  const mean = leak.reduce((a, b) => a + b, 0) / leak.length;
  console.log(`# vocabulary leak: mean ${mean.toFixed(2)}, highest ${Math.max(...leak).toFixed(2)}`);
  assert.ok(mean <= 0.3, `mean leak ${mean}`);
  assert.ok(Math.max(...leak) <= 0.6, `highest leak ${Math.max(...leak)}`);
});
