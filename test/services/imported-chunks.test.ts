import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadQuestionsFile, validateQuestions } from "../../src/evaluators/questions.js";
import { ValidationError } from "../../src/errors.js";
import { locateImportedChunks, parseChunksJsonl } from "../../src/strategies/imported-chunks.js";
import { createWorkspace, type Workspace } from "../helpers/workspace.js";
import { buildDocx, handbookBytes } from "../helpers/documents.js";

const HANDBOOK_QUESTIONS = new URL("../../questions/harbor-light-handbook.json", import.meta.url).pathname;

/** Cuts a text into chunks of about `size` characters at paragraph breaks, as a user's pipeline might. */
function paragraphChunks(text: string, size = 600): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", Math.min(text.length, start + size));
    if (end === -1) end = text.length;
    if (text.slice(start, end).trim()) out.push({ start, end });
    start = end;
  }
  return out;
}

function writeJsonl(path: string, lines: unknown[]): void {
  writeFileSync(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
}

const importFile = (name: string, path: string) => parseChunksJsonl(name, path, readFileSync(path, "utf8"));

async function handbook(ws: Workspace) {
  const { id } = await ws.app.upload({ filename: "harbor-light-handbook.docx", bytes: handbookBytes() });
  const document = await ws.app.getDocument(id);
  const questions = (await loadQuestionsFile(HANDBOOK_QUESTIONS)).slice(0, 8);
  return { document, questions };
}

test("imported chunks are benchmarked beside a built-in strategy, reused on a re-run and processed again once edited", async () => {
  const ws = await createWorkspace();
  try {
    const { document, questions } = await handbook(ws);
    const text = document.text;
    const spans = paragraphChunks(text);
    assert.ok(spans.length > 5);
    // Every other chunk carries its offsets; the others are located by their text.
    const file = join(ws.dir, "mine.jsonl");
    writeJsonl(
      file,
      spans.map((s, i) =>
        i % 2 === 0
          ? { document: "harbor-light-handbook.docx", text: text.slice(s.start, s.end), start: s.start, end: s.end }
          : { text: text.slice(s.start, s.end) },
      ),
    );
    const bench = () =>
      ws.app.bench({ document: { id: document.id }, questions, questionsSource: "handbook.json", strategies: "recursive", chunks: [importFile("mine", file)] });
    const first = await bench();
    assert.deepEqual(first.strategiesUsed, ["recursive", "mine"]);
    // Listed afterwards like any strategy's chunks (no registry knows "mine" outside the run).
    const listed = await ws.app.documentChunks(document.id, "mine");
    assert.deepEqual(
      listed.chunks.map((c) => [c.start, c.end]),
      spans.map((s) => [s.start, s.end]),
    );
    await assert.rejects(ws.app.documentChunks(document.id, "theirs"), /unknown strategy "theirs"/);
    assert.ok(["recursive", "mine"].includes(first.bestStrategy));
    assert.ok(first.aggregateMetrics.mine!.avgRecall! > 0.5, `recall ${first.aggregateMetrics.mine!.avgRecall}`);
    assert.match(first.verdict, /mine|recursive/);
    const stored = (await ws.internals.context.chunks.current(document.id, "mine")).filter((c) => c.role === "chunk");
    assert.deepEqual(
      stored.map((c) => [c.start, c.end]),
      spans.map((s) => [s.start, s.end]),
      "the file's chunks, in order",
    );
    assert.ok(
      stored.every((c) => c.text === text.slice(c.start, c.end) && c.tokenCount > 0),
      "texts are the document's, token counts chunkeval's",
    );
    const indexing = first.details.indexing.find((x) => x.strategy === "mine")!;
    assert.equal(indexing.reused, false);
    assert.equal(indexing.chunks, spans.length);

    const again = await bench();
    assert.equal(again.details.indexing.find((x) => x.strategy === "mine")!.reused, true, "a re-run reuses the stored chunks");

    // The same name, other chunks: processed again, never answered from the old ones.
    writeJsonl(
      file,
      spans.filter((_, i) => i % 2 === 0).map((s) => ({ text: text.slice(s.start, s.end) })),
    );
    const edited = await bench();
    const after = edited.details.indexing.find((x) => x.strategy === "mine")!;
    assert.equal(after.reused, false);
    assert.equal(after.chunks, Math.ceil(spans.length / 2));

    // Search variants of an imported strategy are fine; chunking parameters are not.
    const variants = await ws.app.bench({
      document: { id: document.id },
      questions,
      questionsSource: "handbook.json",
      strategies: "mine@retrieval=dense,mine@top_k=3",
      chunks: [importFile("mine", file)],
    });
    assert.deepEqual(variants.strategiesUsed, ["mine@retrieval=dense", "mine@top_k=3"]);
    await assert.rejects(
      ws.app.bench({ document: { id: document.id }, questions, questionsSource: "h", strategies: "mine@chunk_size=64", chunks: [importFile("mine", file)] }),
      (e: Error) => e instanceof ValidationError && /unknown parameter "chunk_size" \(valid for mine: embedder, retrieval, top_k\)/.test(e.message),
    );
  } finally {
    await ws.cleanup();
  }
});

test("chunks that avoid every reference score recall 0 while recursive scores high", async () => {
  const ws = await createWorkspace();
  try {
    const { document, questions } = await handbook(ws);
    const text = document.text;
    // The text between the references, cut where a reference begins and resumed after it ends.
    const references = questions
      .flatMap((q) => q.references.map((r) => text.indexOf(r.text)))
      .map((start, i) => ({ start, end: start + questions.flatMap((q) => q.references)[i]!.text.length }))
      .sort((a, b) => a.start - b.start);
    assert.ok(references.every((r) => r.start >= 0));
    const gaps: Array<{ start: number; end: number }> = [];
    let at = 0;
    for (const r of references) {
      if (r.start > at) gaps.push({ start: at, end: r.start });
      at = Math.max(at, r.end);
    }
    gaps.push({ start: at, end: text.length });
    const lines = gaps.flatMap((g) => paragraphChunks(text.slice(g.start, g.end), 400).map((s) => ({ start: g.start + s.start, end: g.start + s.end })));
    const file = join(ws.dir, "avoid.jsonl");
    writeJsonl(
      file,
      lines.map((s) => ({ text: text.slice(s.start, s.end), start: s.start, end: s.end })),
    );
    const e = await ws.app.bench({
      document: { id: document.id },
      questions,
      questionsSource: "handbook.json",
      strategies: "recursive",
      chunks: [importFile("avoid", file)],
      dryRun: true,
    });
    assert.equal(e.aggregateMetrics.avoid!.avgRecall, 0);
    assert.equal(e.aggregateMetrics.avoid!.hitRate, 0);
    assert.ok(e.aggregateMetrics.recursive!.avgRecall! > 0.8, `recursive recall ${e.aggregateMetrics.recursive!.avgRecall}`);
    assert.equal(e.bestStrategy, "recursive");
  } finally {
    await ws.cleanup();
  }
});

async function twoDocuments() {
  return [
    {
      filename: "lighthouse.docx",
      bytes: await buildDocx([
        { h: "Harbour lighthouse" },
        { p: "The lighthouse lamp is serviced every March by the coastal trust. The keeper logs each inspection in the blue ledger." },
        { h: "Visiting hours" },
        { p: "Visitors may climb the tower on Saturdays between ten and four. Children under eight must be accompanied." },
      ]),
    },
    {
      filename: "bakery.docx",
      bytes: await buildDocx([
        { h: "Sourdough schedule" },
        { p: "The starter is fed at six in the morning with rye flour and water at equal weight. Loaves proof for fourteen hours in the cold room." },
        { h: "Oven settings" },
        { p: "The deck oven runs at two hundred and forty degrees with steam for the first twelve minutes of every bake." },
      ]),
    },
  ];
}

const COLLECTION_QUESTIONS = validateQuestions("q.json", [
  {
    question: "When is the lighthouse lamp serviced?",
    references: [{ document: "lighthouse.docx", text: "The lighthouse lamp is serviced every March by the coastal trust." }],
  },
  { question: "How long do loaves proof?", references: [{ document: "bakery.docx", text: "Loaves proof for fourteen hours in the cold room." }] },
  { question: "How hot is the deck oven?", references: [{ document: "bakery.docx", text: "The deck oven runs at two hundred and forty degrees" }] },
]);

test("imported chunks of a collection name their documents and are broken down per document", async () => {
  const ws = await createWorkspace();
  try {
    const collection = await ws.app.addToCollection("farm-and-sea", await twoDocuments(), { create: true });
    const bakeryId = collection.documents[1]!.id;
    const file = join(ws.dir, "mine.jsonl");
    writeJsonl(file, [
      { document: "lighthouse.docx", text: "Harbour lighthouse\nThe lighthouse lamp is serviced every March by the coastal trust." },
      // White space differs from the extracted text (a pipeline that flattened it): still found.
      { document: "lighthouse.docx", text: "Visiting   hours Visitors may climb the tower on Saturdays between ten and four." },
      { document: bakeryId, text: "Loaves proof for fourteen hours in the cold room." },
      { document: "bakery.docx", text: "The deck oven runs at two hundred and forty degrees" },
    ]);
    const e = await ws.app.bench({
      collection: { name: "farm-and-sea" },
      questions: COLLECTION_QUESTIONS,
      questionsSource: "q.json",
      strategies: ["recursive@chunk_size=32:chunk_overlap=0"],
      chunks: [importFile("mine", file)],
      topK: 2,
    });
    assert.deepEqual(e.strategiesUsed, ["recursive@chunk_size=32:chunk_overlap=0", "mine"]);
    assert.equal(e.aggregateMetrics.mine!.avgRecall, 1, "every reference lies in one of the given chunks");
    assert.deepEqual(
      e.perDocument!.map((d) => [d.filename, d.questions, Object.keys(d.aggregateMetrics).sort()]),
      [
        ["lighthouse.docx", 1, ["mine", "recursive@chunk_size=32:chunk_overlap=0"]],
        ["bakery.docx", 2, ["mine", "recursive@chunk_size=32:chunk_overlap=0"]],
      ],
    );
    const counts = await Promise.all(collection.documents.map(async (d) => (await ws.internals.context.chunks.current(d.id, "mine")).length));
    assert.deepEqual(counts, [2, 2]);
  } finally {
    await ws.cleanup();
  }
});

test("bad imported chunks are refused before anything is processed or stored, naming the file and the line", async () => {
  const ws = await createWorkspace();
  try {
    const collection = await ws.app.addToCollection("farm-and-sea", await twoDocuments(), { create: true });
    const file = join(ws.dir, "bad.jsonl");
    const good = { document: "lighthouse.docx", text: "The lighthouse lamp is serviced every March" };
    const goodBakery = { document: "bakery.docx", text: "Loaves proof for fourteen hours" };
    const cases: Array<[string, unknown[], RegExp]> = [
      ["bad JSON", [good, "{ not json", goodBakery], /chunks file .*bad\.jsonl, line 2: not valid JSON/],
      ["no text", [good, { document: "bakery.docx" }], /bad\.jsonl, line 2: "text" is missing or not a string/],
      ["one offset", [good, { ...goodBakery, start: 3 }], /line 2: give both "start" and "end", or neither/],
      [
        "unknown document",
        [good, { document: "orchard.docx", text: "apples" }],
        /line 2: no document "orchard\.docx" in the benchmark \(documents: lighthouse\.docx, bakery\.docx\)/,
      ],
      ["no document", [good, { text: "Loaves proof" }], /line 2: no "document" \(the benchmark searches 2 documents/],
      [
        "text not found",
        [good, goodBakery, { document: "bakery.docx", text: "Croissants are laminated with butter." }],
        /line 3: the text is not in bakery\.docx: "Croissants are laminated with butter\."/,
      ],
      [
        "offsets off",
        [good, { ...goodBakery, start: 0, end: 31 }],
        /line 2: the text of bakery\.docx at 0-31 is "Sourdough schedule.*", not the chunk's "Loaves proof for fourteen hours"/,
      ],
      ["offsets past the end", [good, { ...goodBakery, start: 0, end: 100000 }], /line 2: "end" 100000 is past the end of bakery\.docx's text/],
      [
        "a document without chunks",
        [good],
        /bad\.jsonl: no chunk for the document bakery\.docx \(.*\); chunks of "mine" must cover every document benchmarked/,
      ],
      ["empty", [], /bad\.jsonl: no chunks/],
    ];
    const chunkState = () => Promise.all(collection.documents.map((d) => ws.internals.context.chunks.state(d.id, "mine")));
    for (const [label, lines, message] of cases) {
      writeJsonl(file, lines);
      if (lines.length === 0) writeFileSync(file, "\n\n");
      await assert.rejects(
        async () =>
          ws.app.bench({
            collection: { name: "farm-and-sea" },
            questions: COLLECTION_QUESTIONS,
            questionsSource: "q.json",
            strategies: "recursive",
            chunks: [importFile("mine", file)],
          }),
        (e: Error) => e instanceof ValidationError && message.test(e.message),
        label,
      );
      // The background check refuses it the same way, before its 202.
      if (lines.length > 0) {
        await assert.rejects(
          ws.app.checkBench({
            collection: { name: "farm-and-sea" },
            questions: COLLECTION_QUESTIONS,
            questionsSource: "q",
            strategies: "recursive",
            chunks: [importFile("mine", file)],
          }),
          message,
        );
      }
    }
    // Every bad line of a file is named in one error, not only the first: lines that are no chunk
    // and chunks that cannot be placed alike, in one run.
    // In file order, whatever is wrong with each; a byte-order mark (PowerShell's utf8) is not line 1's.
    writeJsonl(file, [
      `\uFEFF${JSON.stringify(good)}`,
      "{ not json",
      { document: "bakery.docx", text: "Croissants are laminated with butter." },
      { document: "bakery.docx" },
      "[1, 2",
      goodBakery,
    ]);
    await assert.rejects(
      ws.app.bench({ collection: { name: "farm-and-sea" }, questions: COLLECTION_QUESTIONS, questionsSource: "q", chunks: [importFile("mine", file)] }),
      (e: Error) =>
        e instanceof ValidationError &&
        new RegExp(
          "bad\\.jsonl: 4 bad lines \\(3 not read as a chunk, 1 not placed\\):\\n {2}chunks file .*bad\\.jsonl, line 2: not valid JSON .*\\n {2}.*line 3: " +
            'the text is not in bakery\\.docx: "Croissants.*\\n {2}.*line 4: "text" is missing or not a string\\n {2}.*line 5: not valid JSON[^\\n]*$',
        ).test(e.message),
    );
    // A file with no good line at all is refused as it is read, every bad line named.
    writeJsonl(file, ["{ not json", { document: "bakery.docx" }]);
    assert.throws(
      () => importFile("mine", file),
      (e: Error) =>
        e instanceof ValidationError &&
        /bad\.jsonl: 2 bad lines:\n {2}line 1: not valid JSON .*\n {2}line 2: "text" is missing or not a string/.test(e.message),
    );
    // Several imports with problems: each is named in one run.
    const other = join(ws.dir, "other.jsonl");
    writeJsonl(file, [good, { document: "bakery.docx", text: "Croissants are laminated with butter." }]);
    writeJsonl(other, [{ document: "orchard.docx", text: "apples" }, goodBakery, good]);
    await assert.rejects(
      ws.app.bench({
        collection: { name: "farm-and-sea" },
        questions: COLLECTION_QUESTIONS,
        questionsSource: "q",
        chunks: [importFile("mine", file), importFile("theirs", other)],
      }),
      (e: Error) =>
        e instanceof ValidationError &&
        /bad\.jsonl, line 2: the text is not in bakery\.docx/.test(e.message) &&
        /other\.jsonl, line 1: no document "orchard\.docx"/.test(e.message),
    );
    writeJsonl(file, [good, goodBakery]);
    for (const [name, problem] of [
      ["recursive", /the name "recursive" is taken by another strategy/],
      ["Mine!", /the name "Mine!" must be lowercase letters/],
      ["all", /"all" is not a strategy name/],
    ] as const) {
      await assert.rejects(
        ws.app.bench({ collection: { name: "farm-and-sea" }, questions: COLLECTION_QUESTIONS, questionsSource: "q", chunks: [importFile(name, file)] }),
        (e: Error) => e instanceof ValidationError && problem.test(e.message),
        name,
      );
    }
    await assert.rejects(
      ws.app.bench({
        collection: { name: "farm-and-sea" },
        questions: COLLECTION_QUESTIONS,
        questionsSource: "q",
        chunks: [importFile("mine", file), importFile("mine", file)],
      }),
      /the name "mine" is taken/,
    );
    assert.equal((await ws.app.listExperiments({ offset: 0, limit: 10 })).total, 0, "no experiment stored");
    assert.deepEqual(await chunkState(), [null, null], "no chunks stored under the name");
    assert.equal(await ws.internals.context.chunks.state(collection.documents[0]!.id, "recursive"), null, "nothing processed at all");
  } finally {
    await ws.cleanup();
  }
});

test("chunks from another extraction are placed like references (typography, markup, line-end hyphenation), flagged when only their words match", async () => {
  const ws = await createWorkspace();
  try {
    const collection = await ws.app.addToCollection("farm-and-sea", await twoDocuments(), { create: true });
    const file = join(ws.dir, "mine.jsonl");
    const lines = [
      { document: "lighthouse.docx", text: "The lighthouse lamp is serviced every March by the coastal trust." },
      // From the Markdown source (markup) and from pdftotext (a word hyphenated at a line end): the same words.
      { document: "lighthouse.docx", text: "**Visitors** may climb the tower on Saturdays between ten and four." },
      { document: "bakery.docx", text: "Loaves proof for four-\nteen hours in the cold room." },
      { document: "bakery.docx", text: "The deck oven runs at two hundred and forty degrees" },
    ];
    writeJsonl(file, lines);
    const e = await ws.app.bench({
      collection: { name: "farm-and-sea" },
      questions: COLLECTION_QUESTIONS,
      questionsSource: "q.json",
      strategies: ["recursive"],
      chunks: [importFile("mine", file)],
      topK: 2,
      dryRun: true,
    });
    assert.deepEqual(e.details.chunksLocated, { mine: { exact: 2, words: 2 } });
    // Each chunk found only approximately is named by its line in the file.
    assert.deepEqual(e.details.chunksApproximate, { mine: ["line 2", "line 3"] });
    assert.ok(
      e.details.chunkWarnings?.includes(
        "mine: 2 of 4 imported chunks were found in the extracted text only as the same words (line 2, line 3) " +
          "(markup, punctuation or line-end hyphenation differ); each is measured as the span those words cover",
      ),
      JSON.stringify(e.details.chunkWarnings),
    );
    const bakery = await ws.internals.context.chunks.current(collection.documents[1]!.id, "mine");
    assert.equal(bakery[0]!.text, "Loaves proof for fourteen hours in the cold room.", "the span is the document's own text");
    assert.equal(e.aggregateMetrics.mine!.avgRecall, 1);

    // Several lines wrong: one error lists every one, each text not found with its closest passage.
    writeJsonl(file, [
      ...lines,
      { document: "bakery.docx", text: "The deck oven runs at three hundred degrees" },
      { document: "orchard.docx", text: "apples" },
      { document: "lighthouse.docx", text: "The keeper logs each inspection in the red ledger." },
    ]);
    await assert.rejects(
      ws.app.bench({ collection: { name: "farm-and-sea" }, questions: COLLECTION_QUESTIONS, questionsSource: "q", chunks: [importFile("mine", file)] }),
      (error: Error) => {
        assert.match(error.message, /mine\.jsonl: 3 chunks could not be placed:\n {2}/);
        assert.match(
          error.message,
          /line 5: the text is not in bakery\.docx: "The deck oven runs at three hundred degrees"; closest passage \(\d+ % alike\): "The deck oven runs at/,
        );
        assert.match(error.message, /line 6: no document "orchard\.docx"/);
        assert.match(
          error.message,
          /line 7: the text is not in lighthouse\.docx: .*; closest passage \(\d+ % alike\): "The keeper logs each inspection in the blue ledger/,
        );
        return true;
      },
    );
  } finally {
    await ws.cleanup();
  }
});

test("a chunk whose text occurs twice is placed after the chunk before it in the file, even when the earlier occurrence is nearer", () => {
  const note = "Safety note: wear a helmet on the quay.";
  const long = "The crane schedule is posted every Monday. ".repeat(20).trim();
  const text = `${note}\n\nThe ferry leaves at nine.\n\n${long}\n\n${note}`;
  const document = { id: "doc_1", filename: "quay.txt", text };
  // The user's pipeline dropped the long paragraph: the second note follows the ferry line in their file.
  const imp = { name: "mine", source: "chunks file mine.jsonl", chunks: [{ text: "The ferry leaves at nine." }, { text: note }] };
  const spans = locateImportedChunks(imp, [document]).spans.get("doc_1")!;
  assert.deepEqual(
    spans.map((s) => s.start),
    [text.indexOf("The ferry"), text.lastIndexOf(note)],
  );
});

test("a chunk that cannot be placed is reported with its closest passage and where the two first differ", () => {
  const text = "Questions about packages go to the R-help mailing list, whose archive is searchable.\n\nBugs go to the tracker.";
  const document = { id: "doc_1", filename: "faq.pdf", text };
  // pdftotext joins every line-end hyphen, so a chunk cut from its output reads "Rhelp" where the document has "R-help".
  const imp = {
    name: "mine",
    source: "chunks file mine.jsonl",
    chunks: [{ text: "Questions about packages go to the Rhelp mailing list, whose archive is searchable." }],
  };
  assert.throws(
    () => locateImportedChunks(imp, [document]),
    (error: Error) => {
      assert.match(error.message, /closest passage \(\d+ % alike\)/);
      assert.match(
        error.message,
        /they first differ at word 7: the chunk has "to the Rhelp mailing list, whose", the document "to the R-help mailing list, whose"/,
      );
      return true;
    },
  );
});
