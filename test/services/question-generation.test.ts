import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BenchmarkError } from "../../src/errors.js";
import { loadQuestionsFile, resolveQuestions, validateQuestions } from "../../src/evaluators/questions.js";
import { matchExcerpt } from "../../src/text/excerpt-match.js";
import { toWire } from "../../src/transports/serialize.js";
import { handbookBytes } from "../helpers/documents.js";
import { buildPdf, reportPage } from "../helpers/pdf.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { createWorkspace } from "../helpers/workspace.js";

const reply = (question: string, answer: string, excerpts: string[]) => JSON.stringify({ question, answer, excerpts });

/**
 * A stand-in model that answers scripted replies in call order (the service asks one passage at a time).
 * The scripted questions copy less than 75 % of their excerpt's words, so no rewording call comes between them.
 */
async function scriptedModel(replies: string[]) {
  let next = 0;
  return startOpenAiStub({ reply: () => replies[Math.min(next++, replies.length - 1)]! });
}

async function workspaceFor(baseUrl: string) {
  return createWorkspace(
    { generator: "openai:qgen" },
    { CHUNKEVAL_OPENAI_BASE_URL: baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k", CHUNKEVAL_OPENAI_MAX_RETRIES: "0" },
  );
}

test("excerpt matching: exact, then white space and case tolerant, then bounded fuzzy", () => {
  const text = "Members elect a board of nine directors.\n\nBoard elections are held every March at the annual general meeting.";
  assert.deepEqual(matchExcerpt(text, "board of nine"), { start: 16, end: 29, method: "exact", similarity: 1 });
  const loose = matchExcerpt(text, "BOARD   elections are\nheld every march")!;
  assert.equal(loose.method, "normalised");
  assert.equal(text.slice(loose.start, loose.end), "Board elections are held every March");
  const fuzzy = matchExcerpt(text, "Board electons are held evry March at the anual general meeting")!;
  assert.equal(fuzzy.method, "fuzzy");
  assert.equal(text.slice(fuzzy.start, fuzzy.end), "Board elections are held every March at the annual general meeting");
  assert.ok(fuzzy.similarity > 0.85 && fuzzy.similarity < 1, String(fuzzy.similarity));
  const unrelated = matchExcerpt(text, "The moon orbits Saturn in the annual cheese festival");
  assert.ok(unrelated === null || unrelated.similarity < 0.6, JSON.stringify(unrelated));
});

test("LLM questions: excerpts located with offsets, a malformed reply retried, a missing excerpt and a duplicate dropped", async () => {
  const stub = await scriptedModel([
    "Sorry, here is no JSON at all.", // malformed: asked again
    reply("How much does a member share cost?", "100 euros.", ["Membership requires the purchase of one member share at a price of 100 euros."]),
    reply("When do members vote for the board?", "Every March.", ["board elections are held every   MARCH at the annual general meeting."]),
    reply("What colour is the moon?", "Green.", ["The moon is made of green cheese and orbits Saturn twice a year."]),
    reply("How much does a member share cost?", "100 euros.", ["one member share at a price of 100 euros"]),
    reply("What is the peak output of a typical home solar installation?", "4.1 kilowatts.", [
      "A typical househld system has ten panels and a peak output of 4.1 kilowats.",
    ]),
  ]);
  const ws = await workspaceFor(stub.baseUrl);
  try {
    const file = await ws.app.generateQuestions({ document: { filename: "handbook.docx", bytes: handbookBytes() }, count: 3 });
    const doc = await ws.app.getDocument(file.metadata.document.id);
    assert.deepEqual(
      file.questions.map((q) => q.question),
      ["How much does a member share cost?", "When do members vote for the board?", "What is the peak output of a typical home solar installation?"],
    );
    for (const q of file.questions) for (const r of q.references) assert.equal(doc.text.slice(r.start, r.end), r.text);
    assert.equal(file.questions[1]!.references[0]!.text, "Board elections are held every March at the annual general meeting.");
    assert.equal(file.questions[2]!.references[0]!.text, "A typical household system has ten panels and a peak output of 4.1 kilowatts.");
    const m = file.metadata;
    assert.equal(m.kind, "llm");
    assert.equal(m.model, "qgen");
    assert.match(m.prompt!, /copy word for word/);
    assert.deepEqual(m.thresholds, { minExcerptSimilarity: 0.85, duplicateSimilarity: 0.9 });
    assert.deepEqual(m.counts.dropped, { poor_excerpt: 1, duplicate: 1, malformed: 0, copies_excerpt: 0 });
    assert.equal(m.counts.calls, 6);
    assert.equal(m.counts.malformedReplies, 1);
    assert.equal(m.counts.kept, 3);
    assert.deepEqual(
      m.drops.map((d) => d.reason),
      ["poor_excerpt", "duplicate"],
    );
    const prompts = stub.requests.map((r) => r.body.messages.at(-1).content as string);
    assert.equal(prompts[0], prompts[1], "the malformed reply's passage is asked again");
    assert.equal(new Set(prompts.slice(1)).size, 5, "every other call samples a new passage");
    // Passages come from all over the document, not only its start.
    const firstPassage = prompts[1]!.split("<passage>\n")[1]!.split("\n</passage>")[0]!;
    const secondPassage = prompts[2]!.split("<passage>\n")[1]!.split("\n</passage>")[0]!;
    assert.ok(doc.text.indexOf(secondPassage) > doc.text.length / 3, "the second passage is sampled far into the document");
    assert.ok(doc.text.indexOf(firstPassage) < doc.text.indexOf(secondPassage));

    // The file, written as the CLI writes it, is a questions file bench reads as is.
    const path = join(ws.dir, "generated.json");
    writeFileSync(path, JSON.stringify(toWire(file), null, 2));
    const resolved = resolveQuestions("generated.json", await loadQuestionsFile(path), doc.text);
    assert.deepEqual(
      resolved.map((q) => q.references[0]!.start),
      file.questions.map((q) => q.references[0]!.start),
    );

    // Asked again: every accepted reply comes from the cache (the malformed one was not kept,
    // the good reply to the same prompt was), so the model is not called and the file is the same.
    const before = stub.requests.length;
    const again = await ws.app.generateQuestions({ document: { id: doc.id }, count: 3 });
    assert.deepEqual(again.questions, file.questions);
    assert.equal(again.metadata.counts.calls, 5);
    assert.equal(again.metadata.counts.cachedReplies, 5);
    assert.equal(again.metadata.counts.malformedReplies, 0);
    assert.equal(stub.requests.length, before);
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("LLM questions: a reply malformed twice is skipped and counted; the call budget stops the run", async () => {
  const stub = await scriptedModel([
    "not json",
    '{"question": "no excerpts"}',
    reply("When do members vote for the board?", "Every March.", ["Board elections are held every March"]),
  ]);
  const ws = await workspaceFor(stub.baseUrl);
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const file = await ws.app.generateQuestions({ document: { id: doc.id }, count: 5, maxCalls: 4 });
    assert.equal(file.metadata.counts.calls, 4);
    assert.equal(file.metadata.counts.malformedReplies, 2);
    assert.equal(file.metadata.counts.dropped.malformed, 1);
    assert.equal(file.metadata.counts.dropped.duplicate, 1, "the stub repeats its last reply");
    assert.equal(file.questions.length, 1);
    assert.deepEqual(file.metadata.budget, { maxCalls: 4, malformedRetries: 1 });
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("LLM questions: nothing usable is an error, and nothing is written", async () => {
  const stub = await scriptedModel(["never JSON"]);
  const ws = await workspaceFor(stub.baseUrl);
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await assert.rejects(
      ws.app.generateQuestions({ document: { id: doc.id }, count: 2, maxCalls: 3 }),
      (e: unknown) => e instanceof BenchmarkError && /no generated question survived/.test(e.message),
    );
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("template questions: offline, labelled, spread over the sections, references are key sentences", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const file = await ws.app.generateQuestions({ document: { id: doc.id }, count: 6 });
    const full = await ws.app.getDocument(doc.id);
    assert.equal(file.metadata.kind, "template");
    assert.match(file.metadata.notice!, /smoke test/);
    assert.equal(file.questions.length, 6);
    for (const q of file.questions) {
      assert.match(q.question, /^What does the section ".+" say/);
      const r = q.references[0]!;
      assert.equal(full.text.slice(r.start, r.end), r.text);
      assert.equal(q.expectedAnswer, r.text);
    }
    const starts = file.questions.map((q) => q.references[0]!.start);
    assert.ok(starts.at(-1)! > full.text.length * 0.7, "the last question comes from the end of the document");
  } finally {
    await ws.cleanup();
  }
});

test("template questions never ask about page furniture: no running header, footer or page number is a reference, and bench takes the file as is", async () => {
  const ws = await createWorkspace();
  try {
    const sections = ["Traffic", "Dredging", "Ferries", "Outlook"];
    const bytes = buildPdf(
      sections.map((title, i) =>
        reportPage(i + 1, [
          { lines: [title] },
          { lines: [`The ${title.toLowerCase()} section of the report covers the year's work at the harbour in some detail.`] },
          { lines: [`Work on ${title.toLowerCase()} went to plan, and the board approved the next stage in the autumn.`] },
        ]),
      ),
    );
    const doc = await ws.app.upload({ filename: "report.pdf", bytes });
    const stored = await ws.app.getDocument(doc.id);
    assert.ok(stored.blocks.filter((b) => b.kind === "furniture").length >= 8, "the headers and footers are furniture");
    const file = await ws.app.generateQuestions({ document: { id: doc.id }, count: 8, negatives: 2 });
    const positives = file.questions.filter((q) => q.answerable !== false);
    assert.ok(positives.length >= 3, `${positives.length} questions`);
    for (const q of file.questions) {
      const said = [q.question, q.expectedAnswer ?? "", ...q.references.map((r) => `${r.text} ${stored.text.slice(r.start, r.end)}`)].join(" ");
      assert.doesNotMatch(said, /Confidential|Harbour Authority|Annual Report 2025/, q.question);
    }
    const experiment = await ws.app.bench({
      document: { id: doc.id },
      questions: validateQuestions("generated", toWire(file.questions)),
      questionsSource: "generated",
      strategies: "recursive",
    });
    assert.equal(experiment.questionsCount, file.questions.length);
    // A passage copied across a page break, as a reader gives it: questions validate finds it as bench does.
    const across = { question: "What came after the traffic work?", expectedAnswer: null, references: [{ text: "the next stage in the autumn. Dredging" }] };
    const check = await ws.app.checkQuestions({ document: { id: doc.id }, questions: [across], origin: null });
    assert.deepEqual([check.problems, check.located.exact + check.located.normalised + check.located.words], [[], 1]);
  } finally {
    await ws.cleanup();
  }
});

/** Replies by how many questions the prompt says were already asked about its passage. */
function byRound(replies: string[]) {
  return startOpenAiStub({
    reply: (body: { messages: Array<{ content: string }> }) => {
      const prompt = body.messages.map((m) => m.content).join("\n");
      const asked = prompt.includes("already asked") ? prompt.split("already asked")[1]!.split("\n- ").length - 1 : 0;
      return replies[Math.min(asked, replies.length - 1)]!;
    },
  });
}

const PUMPS = [
  { h: "Pump station" },
  { p: "The pump station runs on two diesel engines. Each engine is serviced every spring by the county. The station was built in 1987." },
];
const PUMP_REPLIES = [
  reply("How many engines does the pump station run on?", "Two diesel engines.", ["runs on two diesel engines"]),
  reply("When are the engines serviced?", "Every spring.", ["serviced every spring by the county"]),
  reply("In which year was the pump station built?", "1987.", ["The station was built in 1987."]),
];

test("LLM questions: a document with fewer passages than questions wanted is asked again, for other questions, until enough survive", async () => {
  const { buildDocx } = await import("../helpers/documents.js");
  const stub = await byRound(PUMP_REPLIES);
  const ws = await workspaceFor(stub.baseUrl);
  try {
    const file = await ws.app.generateQuestions({ document: { filename: "pumps.docx", bytes: await buildDocx(PUMPS) }, count: 3 });
    assert.deepEqual(
      file.questions.map((q) => q.question),
      ["How many engines does the pump station run on?", "When are the engines serviced?", "In which year was the pump station built?"],
    );
    assert.deepEqual([file.metadata.counts.passagesAvailable, file.metadata.counts.passagesUsed, file.metadata.counts.calls], [1, 1, 3]);
    const prompts = stub.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => JSON.stringify(r.body));
    assert.match(prompts[2]!, /already asked.*How many engines.*When are the engines serviced/);
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("questions generate from the CLI with an LLM: the file is written with its metadata, and bench takes it as is", async () => {
  const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { buildDocx } = await import("../helpers/documents.js");
  const { runCli } = await import("../helpers/cli.js");
  const stub = await byRound(PUMP_REPLIES);
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-qgen-cli-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" };
  try {
    const doc = join(dir, "pumps.docx");
    writeFileSync(doc, await buildDocx(PUMPS));
    const out = join(dir, "pumps.questions.json");
    const generated = await runCli(["questions", "generate", doc, "--count", "3", "--generator", "openai:qgen", "--out", out], env);
    assert.equal(generated.code, 0, generated.stderr);
    assert.match(generated.stdout, /generator: openai:qgen; kept 3 of 3 requested/);
    const file = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(file.metadata.model, "qgen");
    assert.equal(file.questions[2].references[0].text, "The station was built in 1987.");
    const bench = await runCli(["bench", doc, "--questions", out, "-s", "recursive", "--dry-run", "--json"], env);
    assert.equal(bench.code, 0, bench.stderr);
    assert.equal(JSON.parse(bench.stdout).questions_count, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stub.close();
  }
});
