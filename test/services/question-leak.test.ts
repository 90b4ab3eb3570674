import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BenchmarkError, ValidationError } from "../../src/errors.js";
import { questionLeak } from "../../src/evaluators/question-set.js";
import { loadQuestionsFile, validateQuestions } from "../../src/evaluators/questions.js";
import { toWire } from "../../src/transports/serialize.js";
import { buildDocx, handbookBytes } from "../helpers/documents.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { createWorkspace } from "../helpers/workspace.js";

const reply = (question: string, answer: string, excerpts: string[]) => JSON.stringify({ question, answer, excerpts });

const PUMPS = [
  { h: "Pump station" },
  { p: "The pump station runs on two diesel engines. Each engine is serviced every spring by the county. The station was built in 1987." },
];
// Every content word of the first two questions is in its excerpt (leak 1); the third copies half (0.5).
const COPYING_ENGINES = "Does the pump station run on two diesel engines?";
const COPYING_SERVICE = "When is each engine serviced by the county?";
const BUILT = "In which year was the pump station built?";
const QUESTION_REPLIES = [
  reply(COPYING_ENGINES, "Yes, two.", ["The pump station runs on two diesel engines."]),
  reply(COPYING_SERVICE, "Every spring.", ["Each engine is serviced every spring by the county."]),
  reply(BUILT, "1987.", ["The station was built in 1987."]),
];
// The first rewording copies 1 of its 5 content words (pump); the second still copies 3 of 4 (county, service, engine).
const REWORDINGS: Record<string, string> = {
  [COPYING_ENGINES]: JSON.stringify({ question: "How many motors power the pumping facility?" }),
  [COPYING_SERVICE]: JSON.stringify({ question: "In which season does the county service each engine?" }),
};

/** A stand-in model: question prompts answered by round (questions already asked about the passage), rewording prompts by the question they quote. */
function model(rewordings: Record<string, string> = REWORDINGS) {
  return startOpenAiStub({
    reply: (body: { messages: Array<{ content: string }> }) => {
      const prompt = body.messages.map((m) => m.content).join("\n");
      const quoted = /<question>(.*)<\/question>/.exec(prompt);
      if (quoted) return rewordings[quoted[1]!] ?? "no JSON here";
      const asked = prompt.includes("already asked") ? prompt.split("already asked")[1]!.split("\n- ").length - 1 : 0;
      return QUESTION_REPLIES[Math.min(asked, QUESTION_REPLIES.length - 1)]!;
    },
  });
}

async function pumpWorkspace(baseUrl: string) {
  const ws = await createWorkspace(
    { generator: "openai:qgen" },
    { CHUNKEVAL_OPENAI_BASE_URL: baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k", CHUNKEVAL_OPENAI_MAX_RETRIES: "0" },
  );
  const doc = await ws.app.upload({ filename: "pumps.docx", bytes: await buildDocx(PUMPS) });
  return { ws, doc };
}

const chatPrompts = (stub: { requests: Array<{ path: string; body: any }> }) =>
  stub.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body.messages.map((m: { content: string }) => m.content).join("\n") as string);

test("LLM questions copying their excerpt: one reworded, one whose rewording still copies dropped; calls and tokens count the rewording calls", async () => {
  assert.equal(questionLeak(COPYING_ENGINES, ["The pump station runs on two diesel engines."]), 1);
  const stub = await model();
  const { ws, doc } = await pumpWorkspace(stub.baseUrl);
  try {
    const file = await ws.app.generateQuestions({ document: { id: doc.id }, count: 2 });
    assert.deepEqual(
      file.questions.map((q) => [q.question, q.leak, q.flag]),
      [
        ["How many motors power the pumping facility?", 0.2, undefined],
        [BUILT, 0.5, undefined],
      ],
    );
    assert.equal(file.questions[0]!.expectedAnswer, "Yes, two.", "the rewording keeps the answer and the references");
    assert.equal(file.questions[0]!.references[0]!.text, "The pump station runs on two diesel engines.");

    const m = file.metadata;
    // Three question calls, and one rewording call for each of the two copying questions (not for the third).
    assert.equal(m.counts.calls, 5);
    assert.equal(chatPrompts(stub).length, 5);
    assert.deepEqual(m.tokenUsage, { promptTokens: 5 * 123, completionTokens: 5 * 45, totalTokens: 5 * 168 });
    assert.equal(m.counts.dropped.copies_excerpt, 1);
    const drop = m.drops.find((d) => d.reason === "copies_excerpt")!;
    assert.equal(drop.question, COPYING_SERVICE);
    assert.match(drop.detail, /100 % of its content words are in its excerpt \(≥ 75 %\); its rewording copies 75 %/);
    assert.deepEqual(
      m.leak.paraphrases.map((p) => [p.question, p.leakBefore, p.leakAfter, p.kept]),
      [
        [COPYING_ENGINES, 1, 0.2, true],
        [COPYING_SERVICE, 1, 0.75, false],
      ],
    );
    assert.deepEqual(
      { average: m.leak.average, threshold: m.leak.threshold, above: m.leak.above, measured: m.leak.measured, keepLeaky: m.leak.keepLeaky },
      { average: 0.35, threshold: 0.75, above: 0, measured: 2, keepLeaky: false },
    );

    // The rewording prompt quotes the question, its answer and its excerpt, and asks for other words with the same meaning and answer.
    const rewording = chatPrompts(stub)[1]!;
    assert.match(rewording, /<question>Does the pump station run on two diesel engines\?<\/question>/);
    assert.match(rewording, /<answer>Yes, two\.<\/answer>/);
    assert.match(rewording, /The pump station runs on two diesel engines\./);
    assert.match(rewording, /keep its meaning and its answer, and do not reuse the excerpt's distinctive words/);
    assert.equal(m.leak.paraphrasePrompt!.includes("{question}"), true);

    // Asked again: every reply, the rewordings included, comes from the cache.
    const again = await ws.app.generateQuestions({ document: { id: doc.id }, count: 2 });
    assert.deepEqual(again.questions, file.questions);
    assert.equal(again.metadata.counts.cachedReplies, 5);
    assert.equal(again.metadata.tokenUsage.totalTokens, 0);
    assert.equal(chatPrompts(stub).length, 5);
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("LLM questions copying their excerpt, --keep-leaky: the refused one is kept, flagged with its leak, and bench reads the file", async () => {
  const stub = await model();
  const { ws, doc } = await pumpWorkspace(stub.baseUrl);
  try {
    const file = await ws.app.generateQuestions({ document: { id: doc.id }, count: 2, keepLeaky: true });
    assert.deepEqual(
      file.questions.map((q) => [q.question, q.leak, q.flag]),
      [
        ["How many motors power the pumping facility?", 0.2, undefined],
        [COPYING_SERVICE, 1, "copies its excerpt"],
      ],
    );
    assert.equal(file.metadata.counts.calls, 4);
    assert.equal(file.metadata.counts.dropped.copies_excerpt, 0);
    assert.deepEqual([file.metadata.leak.above, file.metadata.leak.keepLeaky], [1, true]);
    const path = join(ws.dir, "pumps.questions.json");
    writeFileSync(path, JSON.stringify(toWire(file), null, 2));
    const written = JSON.parse(JSON.stringify(toWire(file)));
    assert.deepEqual(written.questions[1].flag, "copies its excerpt");
    assert.equal(written.metadata.leak.keep_leaky, true);
    assert.equal((await loadQuestionsFile(path)).length, 2);
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("LLM questions copying their excerpt: a malformed rewording, or no call left to reword, drops the question and says why", async () => {
  const stub = await model({});
  const { ws, doc } = await pumpWorkspace(stub.baseUrl);
  try {
    // Question, malformed rewording (dropped), question, malformed rewording (dropped): the budget of 4 is spent.
    await assert.rejects(
      ws.app.generateQuestions({ document: { id: doc.id }, count: 1, maxCalls: 4 }),
      (e: unknown) => e instanceof BenchmarkError && /no generated question survived \(4 calls: .*2 copying their excerpt\)/.test(e.message),
    );
    assert.equal(chatPrompts(stub).filter((p) => p.includes("<question>")).length, 2);
    // The first question's reply now comes from the cache but still counts as a call: none is left to reword it.
    const before = chatPrompts(stub).length;
    const kept = await ws.app.generateQuestions({ document: { id: doc.id }, count: 1, maxCalls: 1, keepLeaky: true });
    assert.equal(chatPrompts(stub).length, before);
    assert.deepEqual(kept.metadata.leak.paraphrases, []);
    assert.deepEqual([kept.questions[0]!.question, kept.questions[0]!.flag], [COPYING_ENGINES, "copies its excerpt"]);
    await assert.rejects(ws.app.generateQuestions({ document: { id: doc.id }, count: 1, maxCalls: 1 }), /1 copying their excerpt/);
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("template questions carry their leak; one at --max-leak is left out for another section's (flagged with keepLeaky); all left out: an error", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const all = await ws.app.generateQuestions({ document: { id: doc.id }, count: 16 });
    for (const q of all.questions) assert.equal(q.leak, Number(questionLeak(q.question, [q.references[0]!.text])!.toFixed(3)));
    assert.deepEqual([all.metadata.leak.threshold, all.metadata.leak.measured, all.metadata.leak.paraphrasePrompt], [0.75, 16, null]);
    // The leak is measured per question, not a constant of the generator: high for some, low for others.
    const leaks = all.questions.map((q) => q.leak!);
    console.log(`# handbook template questions' leak: ${Math.min(...leaks).toFixed(2)} to ${Math.max(...leaks).toFixed(2)}`);
    assert.ok(Math.max(...leaks) >= 0.5 && Math.min(...leaks) <= 0.25, `leaks ${leaks.join(", ")}`);
    const copying = all.questions.filter((q) => q.leak! >= 0.5).map((q) => q.question);
    assert.ok(copying.length >= 2, "some handbook template questions copy half their words");

    const screened = await ws.app.generateQuestions({ document: { id: doc.id }, count: 16, maxLeak: 0.5 });
    assert.ok(screened.questions.every((q) => q.leak! < 0.5));
    assert.deepEqual(
      screened.metadata.drops.map((d) => [d.reason, d.question]),
      copying.map((q) => ["copies_excerpt", q]),
    );
    assert.equal(screened.metadata.counts.dropped.copies_excerpt, copying.length);
    assert.equal(screened.questions.length, 16 - copying.length);

    // Fewer wanted than sections: another section takes the left-out one's place.
    const few = await ws.app.generateQuestions({ document: { id: doc.id }, count: 6, maxLeak: 0.5 });
    assert.equal(few.questions.length, 6);

    const flagged = await ws.app.generateQuestions({ document: { id: doc.id }, count: 16, maxLeak: 0.5, keepLeaky: true });
    assert.deepEqual(
      flagged.questions.filter((q) => q.flag === "copies its excerpt").map((q) => q.question),
      copying,
    );
    assert.equal(flagged.metadata.leak.above, copying.length);

    await assert.rejects(
      ws.app.generateQuestions({ document: { id: doc.id }, count: 4, maxLeak: 0.05 }),
      (e: unknown) => e instanceof BenchmarkError && /all 16 template questions copy ≥ 5 %.*--keep-leaky keeps them, flagged/.test(e.message),
    );
    for (const maxLeak of [0, 1.5])
      await assert.rejects(ws.app.generateQuestions({ document: { id: doc.id }, count: 4, maxLeak }), (e: unknown) => e instanceof ValidationError);
  } finally {
    await ws.cleanup();
  }
});

test("questions files: a question's leak and flag, as questions generate writes them, are read; a leak out of [0, 1] is refused", () => {
  const items = validateQuestions("q.json", [{ question: "Why?", references: ["Because."], leak: 0.8, flag: "copies its excerpt" }]);
  assert.deepEqual(items, [{ question: "Why?", expectedAnswer: null, references: [{ text: "Because." }] }]);
  assert.throws(() => validateQuestions("q.json", [{ question: "Why?", leak: 2 }]), /"leak" must be a number from 0 to 1/);
  assert.throws(() => validateQuestions("q.json", [{ question: "Why?", flag: 1 }]), /"flag" must be a string/);
});
