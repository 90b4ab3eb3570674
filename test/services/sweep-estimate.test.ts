import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { percentile } from "../../src/domain/vectors.js";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { ASSUMED_LOCAL_ANSWER_AND_JUDGING_SECONDS, ASSUMED_RETRIEVAL_SECONDS } from "../../src/services/benchmarking/cost-model.js";
import { quickGuessSeconds } from "../../src/services/benchmarking/long-run-estimate.js";
import { planVariants } from "../../src/services/corpus/variants.js";
import { locateOffThread } from "../../src/services/corpus/locate-off-thread.js";
import { DEFAULTS } from "../../src/config/defaults.js";
import type { ProgressEvent } from "../../src/domain/types.js";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";

const QUESTIONS = fileURLToPath(new URL("../../questions/harbor-light-handbook.json", import.meta.url));

test("sweep estimate on the handbook: counts what the run embeds, nothing once cached; runs at an assumed rate until a benchmark measures them", async () => {
  // Its own embedding cache: the test counts what gets embedded, which the run's warm cache would serve.
  const ws = await createWorkspace({}, {}, { ownCache: true });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const questions = await loadQuestionsFile(QUESTIONS);
    const input = { document: { id: doc.id }, questions, questionsSource: "handbook.json", sweep: ["recursive:chunk_size=128,256:chunk_overlap=0,32"] };
    const embedder = await ws.internals.context.embedder();

    const fresh = await ws.app.estimateBench(input);
    assert.equal(fresh.indexesToBuild, 4);
    // No earlier benchmark to measure a run on: the runs are priced at the assumed rate, not left out.
    assert.equal(fresh.time.runRate, "assumed");
    assert.equal(fresh.time.runSeconds, ASSUMED_RETRIEVAL_SECONDS + ASSUMED_LOCAL_ANSWER_AND_JUDGING_SECONDS);
    assert.ok(fresh.time.embedSecondsPerToken !== null && fresh.time.embedSecondsPerToken > 0, "a rate was measured");
    assert.equal(fresh.seconds, fresh.time.newEmbeddingTokens * fresh.time.embedSecondsPerToken! + 112 * fresh.time.runSeconds + 4 * fresh.time.scoringSeconds);
    assert.match(fresh.includes, /112 question runs at an assumed 10\.0 ms each of local work \(no earlier benchmark in this data directory/);
    const before = embedder.stats.computedTokens;
    const record = await ws.app.bench(input);
    const embedded = embedder.stats.computedTokens - before;
    // The run embeds the chunks, questions and expected answers the estimate counted, and the extractive
    // answers' sentences, which it cannot know before retrieval: the count is close to what was embedded, never above it.
    assert.ok(fresh.time.newEmbeddingTokens <= embedded, `${fresh.time.newEmbeddingTokens} counted, ${embedded} embedded`);
    assert.ok(fresh.time.newEmbeddingTokens >= 0.85 * embedded, `${fresh.time.newEmbeddingTokens} counted, ${embedded} embedded`);

    const again = await ws.app.estimateBench(input);
    assert.equal(again.indexesToBuild, 0);
    assert.equal(again.time.newEmbeddingTokens, 0, "every text is cached now");
    assert.equal(again.time.embedSecondsPerToken, null, "nothing to embed: nothing measured");
    const runTimes = Object.values(await ws.app.experimentResults(record.experimentId))
      .flat()
      .filter((r) => r.error === null)
      .map((r) => r.stageSeconds.retrieval + r.stageSeconds.generation + r.stageSeconds.judging);
    assert.equal(again.time.runRate, "measured");
    assert.equal(again.time.runSeconds, percentile(runTimes, 50));
    assert.equal(again.seconds, again.runs * percentile(runTimes, 50) + 4 * again.time.scoringSeconds);
    assert.match(again.includes, /^nothing new to embed: the cache holds every text; 112 question runs at [\d.]+ ms each/);

    // Two new sizes: only their chunks are new (the questions, answers and sentences are cached).
    const wider = await ws.app.estimateBench({ ...input, sweep: ["recursive:chunk_size=128,384:chunk_overlap=0"] });
    assert.equal(wider.indexesToBuild, 1, "recursive@chunk_size=128:chunk_overlap=0 is built already");
    const beforeWider = embedder.stats.computedTokens;
    await ws.app.bench({ ...input, sweep: ["recursive:chunk_size=128,384:chunk_overlap=0"] });
    const widerEmbedded = embedder.stats.computedTokens - beforeWider;
    assert.ok(wider.time.newEmbeddingTokens > 0 && wider.time.newEmbeddingTokens <= widerEmbedded, `${wider.time.newEmbeddingTokens} of ${widerEmbedded}`);
    assert.ok(wider.time.newEmbeddingTokens >= 0.9 * widerEmbedded, `${wider.time.newEmbeddingTokens} counted, ${widerEmbedded} embedded`);
  } finally {
    await ws.cleanup();
  }
});

test("a plain bench expected to be long says its estimate before any work; a quick guess spares short runs the estimate", async () => {
  const questions = (await loadQuestionsFile(QUESTIONS)).slice(0, 4);
  // The bundled model's kind of rate: the handbook is far below half a minute's guess, a book of a
  // million characters far above (the estimate is then made and decides).
  const model = await createWorkspace({ embedder: "use" }, {}, { ownCache: true });
  try {
    const context = model.internals.context;
    const document = (await context.documents.get((await model.app.upload({ filename: "handbook.docx", bytes: handbookBytes() })).id))!;
    const { variants } = await planVariants(context, { strategies: "recursive" });
    const { questions: located } = await locateOffThread("handbook.json", questions, undefined, [document]);
    const embedder = await context.embedder();
    const plan = { documents: [document], variants, topK: 5, questions: located, dryRun: true };
    const handbook = await quickGuessSeconds(context, embedder, plan);
    assert.ok(handbook > 0 && handbook < DEFAULTS.announceEstimateSeconds / 2, `handbook: ${handbook} s`);
    const book = { ...document, id: "doc_not_stored", text: "The tide tables of the northern pier. ".repeat(26_000) };
    const guessed = await quickGuessSeconds(context, embedder, { ...plan, documents: [book] });
    assert.ok(guessed >= DEFAULTS.announceEstimateSeconds, `a book of ${book.text.length} characters: ${guessed} s`);
  } finally {
    await model.cleanup();
  }

  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const input = { document: { id: doc.id }, questions, questionsSource: "handbook.json", strategies: "recursive", dryRun: true };
    // Announced above 0 s: the estimate comes before any index is built or question run, after only the
    // line that says it is being made (the run's shared cache may hold the hash vectors of these chunks
    // already: other files embed the handbook too).
    const events: ProgressEvent[] = [];
    await ws.app.bench({ ...input, announceEstimateAbove: 0, onProgress: (e) => events.push(e) });
    const stages = events.map((e) => e.stage);
    assert.deepEqual(stages.slice(0, 2), ["plan", "estimate"], events.map((e) => `${e.stage}: ${e.message}`).join("\n"));
    assert.match(
      events[1]!.message,
      /^about \d+ s and \$0\.0000 \(dry run\): 1 of 1 indexes to build, 4 question runs; the time includes (embedding \d+ tokens|nothing new to embed)/,
    );

    // At the default minute, a run this small says nothing (no estimate made); once built, an estimate at 0 s holds only the runs.
    const quiet: ProgressEvent[] = [];
    await ws.app.bench({ ...input, announceEstimateAbove: DEFAULTS.announceEstimateSeconds, onProgress: (e) => quiet.push(e) });
    assert.ok(!quiet.some((e) => e.stage === "estimate" || e.stage === "plan"));
    const again: ProgressEvent[] = [];
    await ws.app.bench({ ...input, announceEstimateAbove: 0, onProgress: (e) => again.push(e) });
    assert.match(again.find((e) => e.stage === "estimate")!.message, /: 0 of 1 indexes to build, 4 question runs; the time includes nothing new to embed/);
  } finally {
    await ws.cleanup();
  }
});
