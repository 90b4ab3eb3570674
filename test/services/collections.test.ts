import { test } from "node:test";
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { validateQuestions } from "../../src/evaluators/questions.js";
import { ConflictError, NotFoundError, ValidationError } from "../../src/errors.js";
import { createWorkspace } from "../helpers/workspace.js";
import { buildDocx } from "../helpers/documents.js";
import { questionQuotas } from "../../src/services/questions/collection-questions.js";
import { addWithUndo } from "../../src/services/corpus/collections.js";
import { toWire } from "../../src/transports/serialize.js";

/** Three short documents on different topics, each with sections a question can point to. */
async function corpusFiles() {
  const lighthouse = await buildDocx([
    { h: "Harbour lighthouse" },
    { p: "The lighthouse lamp is serviced every March by the coastal trust. The keeper logs each inspection in the blue ledger." },
    { h: "Visiting hours" },
    { p: "Visitors may climb the tower on Saturdays between ten and four. Children under eight must be accompanied." },
  ]);
  const bakery = await buildDocx([
    { h: "Sourdough schedule" },
    { p: "The starter is fed at six in the morning with rye flour and water at equal weight. Loaves proof for fourteen hours in the cold room." },
    { h: "Oven settings" },
    { p: "The deck oven runs at two hundred and forty degrees with steam for the first twelve minutes of every bake." },
  ]);
  const orchard = await buildDocx([
    { h: "Apple orchard" },
    { p: "The orchard grows Bramley and Cox trees on the south slope. Pruning happens in January when the trees are dormant." },
    { h: "Harvest" },
    { p: "Picking starts in late September and the fruit is stored at three degrees in the barn." },
  ]);
  return [
    { filename: "lighthouse.docx", bytes: lighthouse },
    { filename: "bakery.docx", bytes: bakery },
    { filename: "orchard.docx", bytes: orchard },
  ];
}

const QUESTIONS = validateQuestions("q.json", [
  {
    question: "When is the lighthouse lamp serviced?",
    references: [{ document: "lighthouse.docx", text: "The lighthouse lamp is serviced every March by the coastal trust." }],
  },
  {
    question: "When can visitors climb the tower?",
    references: [{ document: "lighthouse.docx", text: "Visitors may climb the tower on Saturdays between ten and four." }],
  },
  { question: "How long do loaves proof?", references: [{ document: "bakery.docx", text: "Loaves proof for fourteen hours in the cold room." }] },
  // No document named: found in exactly one document, so it resolves there.
  { question: "When is the orchard pruned?", references: ["Pruning happens in January when the trees are dormant."] },
  {
    question: "What temperatures matter for the oven and the fruit store?",
    references: [
      { document: "bakery.docx", text: "The deck oven runs at two hundred and forty degrees" },
      { document: "orchard.docx", text: "the fruit is stored at three degrees in the barn" },
    ],
  },
]);

test("a collection benchmark searches every document, pools span metrics and breaks them down per document", async () => {
  // Dense search ranks every chunk of every document, so other documents' chunks compete as distractors (BM25 returns only chunks sharing a word).
  const ws = await createWorkspace({ retrieval: "dense" });
  try {
    const files = await corpusFiles();
    const e = await ws.app.bench({
      collection: { name: "farm-and-sea", add: files },
      questions: QUESTIONS,
      questionsSource: "q.json",
      strategies: ["recursive@chunk_size=32:chunk_overlap=0", "fixed_size@chunk_size=32:chunk_overlap=0"],
      topK: 3,
    });
    const collection = await ws.app.getCollection("farm-and-sea");
    assert.equal(e.documentId, collection.id, "document_id carries the collection's id");
    assert.deepEqual(
      e.collection!.documents.map((d) => d.filename),
      ["lighthouse.docx", "bakery.docx", "orchard.docx"],
    );
    const results = await ws.app.experimentResults(e.experimentId);
    const all = Object.values(results).flat();
    const docIds = new Set(collection.documents.map((d) => d.id));
    assert.ok(
      all.every((r) => r.retrieved.every((c) => docIds.has(c.documentId!))),
      "retrieved chunks name their document",
    );
    const distractors = all.flatMap((r) => r.retrieved.filter((c) => !r.references.some((ref) => ref.documentId === c.documentId)));
    assert.ok(distractors.length > 0, "other documents' chunks are retrieved as distractors");
    // Pooled precision counts them: with three chunks retrieved and one reference each, precision < recall.
    for (const s of e.strategiesUsed) assert.ok(e.aggregateMetrics[s]!.avgPrecision! < e.aggregateMetrics[s]!.avgRecall!);

    const groups = e.perDocument!.map((d) => [d.filename, d.questions]);
    assert.deepEqual(groups, [
      ["lighthouse.docx", 2],
      ["bakery.docx", 1],
      ["orchard.docx", 1],
      ["(several documents)", 1],
    ]);
    for (const d of e.perDocument!) {
      for (const s of e.strategiesUsed) assert.equal(d.aggregateMetrics[s]!.totalQuestions, d.questions);
      assert.ok(e.strategiesUsed.includes(d.bestStrategy));
      assert.equal(d.winner, null, `${d.filename}: ${d.questions} questions name no winner`);
    }
    const lighthouse = e.perDocument![0]!.aggregateMetrics[e.strategiesUsed[0]!]!;
    assert.ok(lighthouse.confidenceIntervals.avg_recall, "per-document metrics carry intervals");

    // ask takes the collection and a variant: chunks of every document compete.
    const asked = await ws.app.ask({
      documentId: "farm-and-sea",
      strategy: "recursive@chunk_size=32:chunk_overlap=0",
      question: "How long do loaves proof?",
      topK: 5,
    });
    assert.equal(asked.strategy, "recursive@chunk_size=32:chunk_overlap=0");
    assert.ok(new Set(asked.retrievedChunks.map((c) => c.documentId)).size > 1, "chunks of several documents");
    assert.equal(asked.retrievedChunks[0]!.documentId, collection.documents[1]!.id, "the bakery's chunk ranks first");
    const keyword = await ws.app.ask({
      documentId: "farm-and-sea",
      strategy: "recursive@chunk_size=32:chunk_overlap=0:retrieval=keyword",
      question: "loaves proof",
    });
    assert.equal(keyword.latencyBreakdown.embedSeconds, 0, "keyword search embeds nothing");
    await assert.rejects(ws.app.ask({ documentId: "farm-and-sea", strategy: "semantic", question: "q" }), /has not been processed with strategy semantic/);

    // Stored and read back with the collection figures.
    const stored = await ws.app.getExperiment(e.experimentId);
    assert.deepEqual(stored.collection, e.collection);
    assert.equal(stored.perDocument!.length, 4);

    // Reports: pooled scorecard first, then the per-document table naming files and the winners.
    for (const view of ["managerial", "technical"] as const) {
      const html = (await ws.app.renderReport(e.experimentId, { view })).body as string;
      assert.ok(html.indexOf("<h2>Per document</h2>") > html.indexOf("scorecard") && /collection farm-and-sea \(col_[0-9a-f]+, 3 documents\)/.test(html), view);
      for (const name of ["lighthouse.docx", "bakery.docx", "orchard.docx", "(several documents)"])
        assert.ok(html.includes(`<td>${name}</td>`), `${view}: ${name}`);
      // One or two questions per document cannot separate strategies: no document names a winner (issue 39).
      assert.doesNotMatch(html, / wins on /);
      assert.ok(html.includes("cannot tell: 2 questions") && html.includes("cannot tell: 1 question"), view);
    }
    const technical = (await ws.app.renderReport(e.experimentId, { view: "technical" })).body as string;
    assert.match(technical, /Reference in bakery\.docx \[/, "the drill-down names each reference's document");
    // A chunk map per document of the collection (issue 38, item 5), each with its own text, references and retrieved chunks.
    assert.deepEqual(
      [...technical.matchAll(/<h3 class="cm-document">([^<]+)<\/h3>/g)].map((m) => m[1]),
      ["lighthouse.docx", "bakery.docx", "orchard.docx"],
    );
    const maps = technical.split('<h3 class="cm-document">').slice(1);
    assert.match(maps[1]!, /<h3>bakery\.docx: <span class="key" title="recursive@chunk_size=32:chunk_overlap=0">/);
    const text = (map: string) => map.replace(/<sup[^>]*>[^<]*<\/sup>/g, "").replace(/<[^>]+>/g, "");
    assert.ok(text(maps[1]!).includes("Loaves proof for fourteen hours") && !text(maps[1]!).includes("lighthouse lamp"), "the bakery's map holds its text");
    assert.match(maps[1]!, /class="c[01][^"]*\bref\b[^"]*"[^>]*>[^<]*Loaves proof/, "its reference excerpt is marked");
    assert.doesNotMatch(maps[2]!, /\bref\b[^"]*"[^>]*>[^<]*Loaves/, "not in another document's map");
    assert.match(
      (await ws.app.renderReport(e.experimentId, { format: "md" })).body as string,
      /### Per document \(3 documents of farm-and-sea searched together/,
    );
  } finally {
    await ws.cleanup();
  }
});

test("adding a document processes only it; deleting one removes its vectors from every strategy's index", async () => {
  const ws = await createWorkspace();
  try {
    const [lighthouse, bakery, orchard] = await corpusFiles();
    const strategies = ["recursive", "fixed_size"];
    const bench = (add: Array<{ filename: string; bytes: Buffer }>) =>
      ws.app.bench({ collection: { name: "c", add }, questions: QUESTIONS.slice(0, 3), questionsSource: "q.json", strategies, topK: 2 });
    await bench([lighthouse!, bakery!]);
    const [first, second] = (await ws.app.getCollection("c")).documents;
    const generations = async () =>
      Object.fromEntries(await Promise.all(strategies.map(async (s) => [s, (await ws.internals.context.chunks.state(first!.id, s))!.generation])));
    const before = await generations();
    const e = await bench([orchard!]);
    assert.deepEqual(await generations(), before, "the documents already processed are not processed again");
    assert.equal((await ws.app.getCollection("c")).documents.length, 3);
    const orchardId = (await ws.app.getCollection("c")).documents[2]!.id;
    for (const s of strategies) assert.ok(await ws.internals.context.chunks.state(orchardId, s), `the new document is processed with ${s}`);
    assert.equal(e.details.indexing.find((x) => x.strategy === "recursive")!.reused, false);

    const vectors = await ws.internals.context.vectors();
    const rowsOf = async (id: string) => (await vectors.inventory()).filter((r) => r.documentId === id);
    assert.ok((await rowsOf(second!.id)).length > 0);
    await ws.app.deleteDocument(second!.id);
    assert.equal((await rowsOf(second!.id)).length, 0, "no strategy keeps the deleted document's vectors");
    assert.deepEqual(
      (await ws.app.getCollection("c")).documents.map((d) => d.filename),
      ["lighthouse.docx", "orchard.docx"],
    );
    // Questions about the deleted document no longer resolve: the error names the file.
    await assert.rejects(
      ws.app.bench({ collection: { name: "c" }, questions: QUESTIONS, questionsSource: "q.json", strategies, topK: 2 }),
      (error: unknown) => error instanceof ValidationError && /no document "bakery.docx"/.test(error.message),
    );
  } finally {
    await ws.cleanup();
  }
});

test("collection references: ambiguous and unknown documents are clear errors; bad names and duplicates are refused", async () => {
  const ws = await createWorkspace();
  try {
    const files = await corpusFiles();
    const twin = { filename: "lighthouse-copy.docx", bytes: await buildDocx([{ p: "The lighthouse lamp is serviced every March by the coastal trust." }]) };
    await ws.app.addToCollection("twins", [files[0]!, twin], { create: true });
    const ask = (references: unknown[]) =>
      ws.app.bench({
        collection: { name: "twins" },
        questions: validateQuestions("q.json", [{ question: "q?", references }]),
        questionsSource: "q.json",
        strategies: ["recursive"],
      });
    await assert.rejects(
      ask(["The lighthouse lamp is serviced every March"]),
      /is in 2 documents \(lighthouse.docx, lighthouse-copy.docx\): name its "document"/,
    );
    await assert.rejects(ask([{ document: "nope.pdf", text: "lamp" }]), /no document "nope.pdf" here \(documents: lighthouse.docx, lighthouse-copy.docx\)/);
    await assert.rejects(ask([{ text: "lamp", start: 0, end: 4 }]), /offsets need the document/);
    assert.throws(() => validateQuestions("q.json", [{ question: "q", references: [{ text: "x", page: 3 }] }]), /unknown field "page"/);
    await assert.rejects(async () => await ws.app.createCollection("twins"), ConflictError);
    await assert.rejects(async () => await ws.app.createCollection("  "), ValidationError);
    await assert.rejects(async () => await ws.app.getCollection("col_missing"), NotFoundError);
    await assert.rejects(async () => await ws.app.createCollection("bad\nname"), ValidationError);
    await assert.rejects(
      ws.app.bench({ collection: { name: "empty" }, questions: validateQuestions("q", [{ question: "q" }]), questionsSource: "q", strategies: ["recursive"] }),
      NotFoundError,
    );
    await ws.app.createCollection("empty");
    await assert.rejects(
      ws.app.bench({ collection: { name: "empty" }, questions: validateQuestions("q", [{ question: "q" }]), questionsSource: "q", strategies: ["recursive"] }),
      /has no documents/,
    );
  } finally {
    await ws.cleanup();
  }
});

test("collection questions: spread by length (one each while the count allows), references name their document, bench reads them", async () => {
  assert.deepEqual(questionQuotas([100, 100, 100], 3), [1, 1, 1]);
  assert.deepEqual(questionQuotas([1000, 100, 100], 8), [6, 1, 1], "one each, the rest by length");
  assert.deepEqual(questionQuotas([100, 300, 200], 2), [0, 1, 1], "fewer questions than documents: the longest get one");
  assert.deepEqual(questionQuotas([300, 100], 6), [5, 1], "a tie of remainders goes to the first");
  for (const [lengths, count] of [
    [[5, 7, 11, 13], 17],
    [[1, 1], 9],
    [[40, 0, 3], 5],
  ] as const) {
    assert.equal(
      questionQuotas([...lengths], count).reduce((a, b) => a + b, 0),
      count,
    );
  }

  const ws = await createWorkspace();
  try {
    const files = await corpusFiles();
    await ws.app.addToCollection("farm", files, { create: true });
    const generated = await ws.app.generateQuestions({ collection: { name: "farm" }, count: 5, generator: "template" });
    assert.equal(generated.metadata.kind, "template");
    assert.deepEqual(
      generated.metadata.collection!.documents.map((d) => [d.filename, d.questions]),
      [
        ["lighthouse.docx", 2],
        ["bakery.docx", 2],
        ["orchard.docx", 1],
      ],
    );
    assert.equal(generated.questions.length, 5);
    assert.ok(generated.questions.every((q) => q.references.every((r) => ["lighthouse.docx", "bakery.docx", "orchard.docx"].includes(r.document!))));
    const e = await ws.app.bench({
      collection: { name: "farm" },
      questions: validateQuestions("generated.json", JSON.parse(JSON.stringify(toWire(generated)))),
      questionsSource: "generated.json",
      strategies: ["recursive"],
    });
    assert.deepEqual(
      e.perDocument!.map((d) => [d.filename, d.questions]),
      [
        ["lighthouse.docx", 2],
        ["bakery.docx", 2],
        ["orchard.docx", 1],
      ],
    );
  } finally {
    await ws.cleanup();
  }
});

test("collection membership: names are the names given, two documents of one name are a conflict, ids are not names", async () => {
  const ws = await createWorkspace();
  try {
    const [lighthouse, bakery] = await corpusFiles();
    // The same bytes uploaded before under another name: the collection knows the name given now.
    await ws.app.upload({ filename: "old-name.docx", bytes: lighthouse!.bytes });
    await ws.app.addToCollection("c", [{ filename: "lighthouse-2024.docx", bytes: lighthouse!.bytes }, bakery!], { create: true });
    assert.deepEqual(
      (await ws.app.getCollection("c")).documents.map((d) => d.filename),
      ["lighthouse-2024.docx", "bakery.docx"],
    );
    const e = await ws.app.bench({
      collection: { name: "c" },
      questions: validateQuestions("q.json", [{ question: "q", references: [{ document: "lighthouse-2024.docx", text: "The keeper logs each inspection" }] }]),
      questionsSource: "q.json",
      strategies: ["recursive"],
    });
    assert.equal(e.perDocument![0]!.filename, "lighthouse-2024.docx");
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 50 })).total, 2, "the bytes were not stored twice");

    const other = { filename: "bakery.docx", bytes: await buildDocx([{ p: "A different bakery document." }]) };
    await assert.rejects(
      ws.app.addToCollection("c", [other]),
      (error: unknown) => error instanceof ConflictError && /already has a document named bakery\.docx/.test(error.message),
    );
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 50 })).total, 2, "the refused upload was taken back");
    assert.equal((await ws.app.getCollection("c")).documents.length, 2);
    const docId = (await ws.app.listDocuments({ offset: 0, limit: 50 })).items[0]!.id;
    await assert.rejects(async () => await ws.app.createCollection(docId), /looks like an id/);

    // ask on a collection records the collection's id, however it was named.
    const asked = await ws.app.ask({ documentId: "c", strategy: "recursive", question: "Who logs inspections?" });
    assert.equal(asked.documentId, (await ws.app.getCollection("c")).id);
  } finally {
    await ws.cleanup();
  }
});

test("a benchmark refused before any work leaves nothing behind: no collection, no uploads", async () => {
  const ws = await createWorkspace();
  try {
    const files = await corpusFiles();
    const bad = validateQuestions("q.json", [{ question: "q", references: [{ document: "lighthouse.docx", text: "not in any document" }] }]);
    await assert.rejects(
      ws.app.bench({ collection: { name: "c", add: files }, questions: bad, questionsSource: "q.json", strategies: ["recursive"] }),
      /excerpt not found/,
    );
    const latin1 = { filename: "zz.txt", bytes: Buffer.from("Caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve r\xe9sum\xe9 \xe0 la carte.\n".repeat(20), "latin1") };
    await assert.rejects(
      ws.app.bench({ collection: { name: "d", add: [...files, latin1] }, questions: QUESTIONS, questionsSource: "q.json", strategies: ["recursive"] }),
      /not a supported document/,
    );
    await assert.rejects(ws.app.bench({ document: files[0]!, questions: bad, questionsSource: "q.json", strategies: ["recursive"] }), /excerpt not found/);
    assert.equal((await ws.app.listCollections({ offset: 0, limit: 50 })).total, 0);
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 50 })).total, 0);
    // What was stored before the refused run stays.
    await ws.app.addToCollection("kept", [files[0]!], { create: true });
    await assert.rejects(
      ws.app.bench({ collection: { name: "kept", add: [files[1]!] }, questions: bad, questionsSource: "q.json", strategies: ["recursive"] }),
    );
    assert.deepEqual(
      (await ws.app.getCollection("kept")).documents.map((d) => d.filename),
      ["lighthouse.docx"],
    );
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 50 })).total, 1);
  } finally {
    await ws.cleanup();
  }
});

test("a collection's technical report names each PDF reference's and chunk's page", async () => {
  const ws = await createWorkspace();
  try {
    const read = (name: string) => ({ filename: name, bytes: readFileSync(`examples/corpus/${name}`) });
    const e = await ws.app.bench({
      collection: { name: "pdf-and-md", add: [read("tidewater-quay-lease.pdf"), read("ledgerline-runbook.md")] },
      questions: validateQuestions("q.json", [
        {
          question: "Until when can the bakery give notice?",
          references: [{ document: "tidewater-quay-lease.pdf", text: "so that the notice is received no later than 31 August 2027" }],
        },
      ]),
      questionsSource: "q.json",
      strategies: ["recursive"],
      topK: 3,
    });
    const html = (await ws.app.renderReport(e.experimentId, { view: "technical" })).body as string;
    assert.match(html, /Reference in tidewater-quay-lease\.pdf \[\d+-\d+\] p\. \d/);
    assert.match(html, /tidewater-quay-lease\.pdf \[\d+-\d+\] pp?\. \d/, "retrieved chunks of the PDF carry pages");
  } finally {
    await ws.cleanup();
  }
});

test("taking back a refused addition removes only what that call did: other callers' additions and uses stay", async () => {
  const ws = await createWorkspace();
  try {
    const [lighthouse, bakery, orchard] = await corpusFiles();
    await ws.app.addToCollection("shared", [lighthouse!], { create: true });
    const bakeryId = (await ws.app.upload(bakery!)).id;
    // A: a second document named lighthouse.docx, refused with a conflict once its upload is parsed;
    // B: meanwhile adds a stored document by id, which must survive A's refusal.
    const clash = { filename: "lighthouse.docx", bytes: orchard!.bytes };
    // A's refusal is expected at once: on PostgreSQL it can come before B's addition ends, and a
    // rejection with no handler yet fails the test run even though it is awaited below.
    const refusedA = assert.rejects(ws.app.addToCollection("shared", [clash]), ConflictError);
    await ws.app.addToCollection("shared", [{ id: bakeryId }]);
    await refusedA;
    assert.deepEqual(
      (await ws.app.getCollection("shared")).documents.map((d) => d.filename),
      ["lighthouse.docx", "bakery.docx"],
    );
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 50 })).total, 2, "A's upload was taken back");

    // An upload another caller picked up before the take-back (same bytes, same document) stays.
    const { undo } = await addWithUndo(ws.internals.context, "fresh", [orchard!], { create: true });
    await ws.app.addToCollection("other", [{ filename: "orchard-copy.docx", bytes: orchard!.bytes }], { create: true });
    await undo();
    assert.deepEqual(
      (await ws.app.getCollection("other")).documents.map((d) => d.filename),
      ["orchard-copy.docx"],
    );
    await assert.rejects(async () => await ws.app.getCollection("fresh"), NotFoundError, "the collection the call made, left empty, is gone");

    // An estimate refused for a reference not found takes back its uploads and collection too.
    const bad = validateQuestions("q.json", [{ question: "q", references: [{ document: "x.docx", text: "nowhere" }] }]);
    const x = { filename: "x.docx", bytes: await buildDocx([{ p: "Something else entirely." }]) };
    await assert.rejects(ws.app.estimateBench({ collection: { name: "est", add: [x] }, questions: bad, strategies: ["recursive"] }), /excerpt not found/);
    await assert.rejects(async () => await ws.app.getCollection("est"), NotFoundError);
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 50 })).total, 3);
  } finally {
    await ws.cleanup();
  }
});
