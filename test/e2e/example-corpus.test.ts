import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "../../src/parsers/parser.js";
import { loadQuestionsFile, resolveQuestions } from "../../src/evaluators/questions.js";
import { buildLeasePdf, buildTripPolicyDocx } from "../../examples/build-corpus.js";
import { runCli } from "../helpers/cli.js";

// The bundled example corpus (examples/corpus/, questions/corpus.json, `npm run example:corpus`):
// every document parses with the real parsers, every format is there, every reference of the
// questions file resolves in the document it names, and a dry-run bench of the folder gives a
// per-document row for each file.

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const CORPUS = root("examples/corpus");
const QUESTIONS = root("questions/corpus.json");

async function parsedCorpus() {
  const files = readdirSync(CORPUS).sort();
  return Promise.all(files.map(async (filename) => ({ filename, parsed: await parseDocument(readFileSync(join(CORPUS, filename)), filename) })));
}

test("example corpus: one document of each format, with structure, built from examples/content", async () => {
  const docs = await parsedCorpus();
  assert.deepEqual(docs.map((d) => d.parsed.format).sort(), ["docx", "html", "md", "pdf", "txt"]);
  for (const { filename, parsed } of docs) {
    assert.ok(parsed.text.length > 4000, `${filename} is a few pages long (${parsed.text.length} characters)`);
    const kinds = new Set(parsed.blocks.map((b) => b.kind));
    if (parsed.format !== "txt") assert.ok(kinds.has("heading"), `${filename} has headings`);
  }
  const pdf = docs.find((d) => d.parsed.format === "pdf")!;
  assert.ok(Math.max(...pdf.parsed.blocks.map((b) => b.page ?? 0)) >= 3, "the PDF has several pages");
  assert.ok(new Set(pdf.parsed.blocks.filter((b) => b.kind === "heading").map((b) => b.level)).size >= 2, "the PDF's title and headings are set larger");

  // The committed binaries are what examples/build-corpus.ts makes of examples/content/ (npm run examples:corpus:build).
  assert.ok(buildLeasePdf().equals(readFileSync(join(CORPUS, "tidewater-quay-lease.pdf"))), "tidewater-quay-lease.pdf is stale: rebuild it");
  const docx = docs.find((d) => d.parsed.format === "docx")!;
  const rebuilt = await parseDocument(await buildTripPolicyDocx(), docx.filename);
  assert.equal(rebuilt.text, docx.parsed.text, `${docx.filename} is stale: rebuild it`);
});

test("example corpus: every reference of questions/corpus.json names its document and resolves in it", async () => {
  const docs = await parsedCorpus();
  const items = await loadQuestionsFile(QUESTIONS);
  assert.ok(items.length >= 30 && items.length <= 40, `${items.length} questions`);
  const perDocument = new Map<string, number>();
  for (const item of items) {
    assert.ok(item.expectedAnswer, `an expected answer for "${item.question}"`);
    assert.ok(item.references.length > 0, `references for "${item.question}"`);
    for (const ref of item.references) assert.ok(ref.document && docs.some((d) => d.filename === ref.document), `"${item.question}" names a corpus document`);
    for (const name of new Set(item.references.map((r) => r.document!))) perDocument.set(name, (perDocument.get(name) ?? 0) + 1);
  }
  for (const { filename } of docs) assert.ok((perDocument.get(filename) ?? 0) >= 5, `at least 5 questions on ${filename}`);
  assert.ok(items.filter((i) => i.references.length > 1).length >= 3, "a few questions need two passages");
  assert.ok(
    items.some((i) => new Set(i.references.map((r) => r.document)).size > 1),
    "a question whose passages are in two documents",
  );

  // Throws, naming the question and the excerpt, when a reference is not in the document it names.
  const questions = resolveQuestions(
    "corpus.json",
    items,
    docs.map((d, i) => ({ id: `doc${i}`, filename: d.filename, text: d.parsed.text })),
  );
  assert.equal(questions.length, items.length);
});

test("example corpus: a dry-run bench of the folder gives a per-document row for each file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-example-corpus-"));
  try {
    const r = await runCli([
      "--data-dir",
      join(dir, "data"),
      "--embedder",
      "hash",
      "-q",
      "bench",
      CORPUS,
      "--questions",
      QUESTIONS,
      "--strategies",
      "recursive",
      "--dry-run",
      "--json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const e = JSON.parse(r.stdout);
    assert.equal(e.collection.documents.length, 5);
    const rows = e.per_document.filter((d: { document_id: string | null }) => d.document_id !== null);
    assert.deepEqual(rows.map((d: { filename: string }) => d.filename).sort(), readdirSync(CORPUS).sort());
    for (const row of rows) assert.ok(row.questions >= 5, `${row.filename}: ${row.questions} questions`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
