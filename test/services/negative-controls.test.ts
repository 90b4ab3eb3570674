import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadQuestionsFile, resolveQuestions, validateQuestions } from "../../src/evaluators/questions.js";
import { ValidationError } from "../../src/errors.js";
import { isAbstention } from "../../src/generators/abstention.js";
import { extractAnswer, NO_ANSWER } from "../../src/generators/extractive.js";
import { toWire } from "../../src/transports/serialize.js";
import { handbookBytes } from "../helpers/documents.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { createWorkspace } from "../helpers/workspace.js";

// Negative controls: questions the document cannot answer ("answerable": false). The answer
// metrics score abstention on them; they have no reference, so no span metric.

test("questions files: answerable false is read and kept, and it cannot carry references or an expected answer", () => {
  const items = validateQuestions("q.json", [
    { question: "What does the handbook say about arctic terns?", answerable: false },
    { question: "When are board elections held?", references: ["Board elections are held every March"], answerable: true },
  ]);
  assert.deepEqual(
    items.map((q) => q.answerable),
    [false, undefined],
  );
  const resolved = resolveQuestions("q.json", items, "Board elections are held every March at the annual general meeting.");
  assert.equal(resolved[0]!.answerable, false);
  assert.equal(resolved[1]!.answerable, undefined);
  const refused = (item: object, pattern: RegExp) =>
    assert.throws(
      () => validateQuestions("q.json", [item]),
      (e: unknown) => e instanceof ValidationError && pattern.test(e.message),
    );
  refused({ question: "Q?", answerable: false, references: ["x"] }, /item 1 \("Q\?"\): an unanswerable question \("answerable": false\) has no references/);
  refused({ question: "Q?", answerable: false, expected_answer: "x" }, /has no references and no expected answer/);
  refused({ question: "Q?", answerable: "no" }, /"answerable" must be true or false/);
});

test("abstention: the extractive generator abstains when the context lacks most of the question's words; a chat reply that says so is read as one", () => {
  const context = [
    { chunkId: "c", documentId: "d", score: 1, start: 0, end: 0, parentId: null, text: "Board elections are held every March at the annual general meeting." },
  ];
  assert.notEqual(extractAnswer("When are board elections held?", context), NO_ANSWER);
  assert.equal(extractAnswer("What does the board say about the migration of arctic terns?", context), NO_ANSWER);
  for (const reply of [
    "The context does not contain the answer to this question.",
    "The provided passages don't mention arctic terns.",
    "This is not mentioned in the context.",
    "There is no information about arctic terns in the context.",
    "I cannot answer this from the given passages.",
    NO_ANSWER,
  ])
    assert.equal(isAbstention(reply), true, reply);
  for (const reply of [
    "Board elections are held every March.",
    "The pump does not contain asbestos; its seal is graphite.",
    "Members cannot vote by proxy. The context does not contain more.",
  ])
    assert.equal(isAbstention(reply), false, reply);
});

const OFFLINE_TEST =
  "negative controls, offline: template negatives written with answerable false, read back, kept out of span metrics, scored on abstention and counted";
test(OFFLINE_TEST, async () => {
  const ws = await createWorkspace();
  try {
    const file = await ws.app.generateQuestions({
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      count: 4,
      negatives: 3,
      generator: "template",
    });
    const negatives = file.questions.filter((q) => q.answerable === false);
    assert.equal(file.questions.length, 7);
    assert.equal(negatives.length, 3);
    assert.deepEqual(file.metadata.negatives, { requested: 3, kept: 3, prompt: null });
    assert.equal(file.metadata.counts.kept, 4, "counts.kept counts the answerable questions");
    for (const q of negatives) {
      assert.deepEqual([q.references, q.expectedAnswer], [[], null]);
      assert.match(q.question, /^What does the section ".+" say about the .+\?$/);
    }
    const doc = await ws.app.getDocument(file.metadata.document.id);
    const words = new Set(doc.text.toLowerCase().match(/\p{L}+/gu));
    for (const q of negatives)
      assert.ok(
        !/about the (\S+)/
          .exec(q.question)![1]!
          .split(" ")
          .some((w) => words.has(w)),
        `${q.question}: a subject the document never mentions`,
      );

    const path = join(ws.dir, "q.json");
    writeFileSync(path, JSON.stringify(toWire(file)));
    const questions = await loadQuestionsFile(path);
    assert.equal(questions.filter((q) => q.answerable === false).length, 3);
    const e = await ws.app.bench({ document: { id: doc.id }, questions, questionsSource: "q.json", strategies: ["recursive"], topK: 3 });
    const results = (await ws.app.experimentResults(e.experimentId)).recursive!;
    const controls = results.filter((r) => r.answerable === false);
    assert.equal(controls.length, 3);
    for (const r of controls) {
      assert.deepEqual([r.metrics.recall, r.metrics.hit, r.metrics.reciprocalRank, r.metrics.iou], [null, null, null, null], "no reference, no span metric");
      assert.equal(r.metrics.answerSimilarity, r.answered ? 0 : 10, "abstaining scores 10, answering 0");
    }
    const answerable = results.filter((r) => r.answerable !== false);
    const meanRecall = answerable.reduce((n, r) => n + r.metrics.recall!, 0) / answerable.length;
    assert.ok(Math.abs(e.aggregateMetrics.recursive!.avgRecall! - meanRecall) < 1e-9, "recall averages the answerable questions only");
    const counts = e.details.negativeControls!.recursive!;
    assert.equal(counts.questions, 3);
    assert.equal(counts.abstained, controls.filter((r) => !r.answered).length);
    console.log(
      `# extractive, hash embedder, top_k 3: abstained on ${counts.abstained} of 3; context relevance ` +
        `${counts.avgContextRelevance?.toFixed(2)} on them, ${counts.avgContextRelevanceAnswerable?.toFixed(2)} on the answerable`,
    );
    const line = `recursive abstained on ${counts.abstained} of 3 unanswerable question(s)`;
    const md = (await ws.app.renderReport(e.experimentId, { format: "md" })).body as string;
    assert.match(md, /### Negative controls/);
    assert.ok(md.includes(`- ${line}`), "the Markdown report gives the negative controls");
    const html = (await ws.app.renderReport(e.experimentId, { format: "html", view: "technical" })).body as string;
    assert.ok(html.includes(`<li>${line}`), "the technical report gives the negative controls");
    const dry = await ws.app.bench({ document: { id: doc.id }, questions, questionsSource: "q.json", strategies: ["recursive"], dryRun: true });
    assert.equal(dry.details.negativeControls, undefined, "a dry run answers nothing");
  } finally {
    await ws.cleanup();
  }
});

test("negative controls with an LLM: the model's unanswerable questions are kept, and a chat generator's abstentions score 10", async () => {
  const stub = await startOpenAiStub({
    reply: (body) => {
      const prompt: string = body.messages.at(-1).content;
      if (prompt.includes("that the passage does not answer")) return JSON.stringify({ question: "How many seagulls nest on the cooperative's roofs?" });
      if (prompt.includes("Write one question that this passage answers"))
        // Worded apart from its excerpt, so the leak screen keeps it as it is.
        return JSON.stringify({
          question: "In which month does the cooperative choose its leaders?",
          answer: "March.",
          excerpts: ["Board elections are held every March"],
        });
      // The answer prompt: the model says so when the context lacks the answer.
      if (prompt.includes("seagulls")) return "The context does not contain the answer to this question.";
      return "Board elections are held every March.";
    },
  });
  const ws = await createWorkspace(
    { generator: "openai:qgen" },
    { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k", CHUNKEVAL_OPENAI_MAX_RETRIES: "0" },
  );
  try {
    const file = await ws.app.generateQuestions({ document: { filename: "handbook.docx", bytes: handbookBytes() }, count: 1, negatives: 2 });
    const negatives = file.questions.filter((q) => q.answerable === false);
    assert.deepEqual(
      negatives.map((q) => q.question),
      ["How many seagulls nest on the cooperative's roofs?"],
      "the second, identical negative is dropped as a duplicate",
    );
    assert.equal(file.metadata.negatives.kept, 1);
    assert.deepEqual([negatives[0]!.leak, file.metadata.leak.measured], [null, 1], "no excerpt, no leak: only the answerable question is measured");
    assert.match(file.metadata.negatives.prompt!, /does not answer/);
    assert.equal(file.metadata.counts.dropped.duplicate, file.metadata.drops.filter((d) => d.reason === "duplicate").length);
    assert.ok(file.metadata.counts.calls <= 9, "within the default budget: 3 calls for each of 3 questions");

    const questions = validateQuestions("q.json", toWire(file.questions));
    const e = await ws.app.bench({ document: { id: file.metadata.document.id }, questions, questionsSource: "q.json", strategies: ["recursive"] });
    const [answered, control] = (await ws.app.experimentResults(e.experimentId)).recursive!;
    assert.equal(answered!.answered, true);
    assert.deepEqual([control!.answerable, control!.answered, control!.metrics.answerSimilarity, control!.metrics.faithfulness], [false, false, 10, null]);
    assert.deepEqual(
      { ...e.details.negativeControls!.recursive!, avgContextRelevance: null, avgContextRelevanceAnswerable: null },
      { questions: 1, abstained: 1, avgContextRelevance: null, avgContextRelevanceAnswerable: null },
    );
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});
