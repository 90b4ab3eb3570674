import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadQuestionsFile, resolveQuestions } from "../../src/evaluators/questions.js";
import { estimateRun, estimateSeconds, LLM_CALL_SECONDS } from "../../src/services/benchmarking/cost-model.js";
import { planVariants } from "../../src/services/corpus/variants.js";
import type { CachedEmbedder } from "../../src/embedders/cache.js";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";

const QUESTIONS = fileURLToPath(new URL("../../questions/harbor-light-handbook.json", import.meta.url));
const SWEEP = ["recursive:chunk_size=128,256:chunk_overlap=0,32"];

test("estimate seconds: new tokens at the measured rate, runs at their rate, chat calls at the assumed time; the words say which and what is left out", () => {
  const parts = {
    newEmbeddingTokens: 2000,
    embedSecondsPerToken: 0.0005,
    runs: 40,
    runSeconds: 0.025,
    runRate: "measured" as const,
    llmCalls: 3,
    variants: 4,
    scoringSeconds: 0.05,
  };
  const { seconds, includes } = estimateSeconds(parts);
  assert.equal(seconds, 2000 * 0.0005 + 40 * 0.025 + 3 * LLM_CALL_SECONDS + 4 * 0.05);
  assert.match(includes, /^embedding 2000 tokens the cache does not hold at 0\.500 ms per token \(measured now, past the model's load and first batch\)/);
  assert.match(includes, /; 40 question runs at 25\.0 ms each \(the median of the last such benchmark here\); /);
  assert.match(includes, /; scoring 4 variants at 50\.0 ms each \(means, bootstrap intervals, comparisons; measured now\); /);
  assert.match(includes, /; 3 chat-model calls at an assumed 2 s each; left out: loading the model and opening the stores \(once per process\)$/);

  // Nothing to embed, no run measured: the runs are still counted, at the assumed rate.
  const cached = estimateSeconds({
    newEmbeddingTokens: 0,
    embedSecondsPerToken: null,
    runs: 40,
    runSeconds: 0.01,
    runRate: "assumed",
    llmCalls: 0,
    variants: 2,
    scoringSeconds: 0.03,
  });
  assert.equal(cached.seconds, 40 * 0.01 + 2 * 0.03);
  assert.equal(
    cached.includes,
    "nothing new to embed: the cache holds every text; " +
      "40 question runs at an assumed 10.0 ms each of local work " +
      "(no earlier benchmark in this data directory with this embedder, generator and judge to measure one); " +
      "scoring 2 variants at 30.0 ms each (means, bootstrap intervals, comparisons; measured now); " +
      "left out: loading the model and opening the stores (once per process)",
  );
});

test("a dry run's figure for the full run is the sweep estimate's: one cost model, counting only what the cache and the stores do not hold", async () => {
  // Its own embedding cache: the test counts what gets embedded, which the run's warm cache would serve.
  const ws = await createWorkspace({}, {}, { ownCache: true });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const questions = await loadQuestionsFile(QUESTIONS);
    const input = { document: { id: doc.id }, questions, questionsSource: "handbook.json", sweep: SWEEP };
    const dry = await ws.app.bench({ ...input, dryRun: true });
    const figure = dry.details.fullRunEstimate!;
    const estimate = await ws.app.estimateBench(input);

    // The dry run built every index and embedded the questions: the full run builds nothing, and
    // embeds only what the embedding judge adds (the expected answers and the document's sentences).
    assert.equal(estimate.indexesToBuild, 0);
    // Equal parts but for the two rates each measures on the spot (embedding, scoring).
    const { embedSecondsPerToken: rate, scoringSeconds: _scoring, ...parts } = figure.time!;
    const { embedSecondsPerToken: estimateRate, scoringSeconds: _estimateScoring, ...estimateParts } = estimate.time;
    assert.deepEqual(parts, estimateParts);
    assert.ok(parts.newEmbeddingTokens > 0 && rate !== null && estimateRate !== null);
    assert.equal(parts.runs, 4 * questions.length);
    // Its seconds are the parts' sum, nothing more: the dry run's own time (loading, indexing) is not in it.
    assert.equal(figure.seconds, estimateSeconds(figure.time!).seconds);
    const masked = (s: string) => s.replace(/at [\d.]+ ms per token/, "at R ms per token").replace(/variants at [\d.]+ ms each/, "variants at S ms each");
    assert.equal(masked(figure.includes!), masked(estimate.includes));

    // After the full run everything is cached and a run is measured: a second dry run's figure embeds nothing.
    await ws.app.bench(input);
    const again = (await ws.app.bench({ ...input, dryRun: true })).details.fullRunEstimate!;
    assert.equal(again.time!.newEmbeddingTokens, 0);
    assert.equal(again.time!.runRate, "measured");
  } finally {
    await ws.cleanup();
  }
});

test("the embedding rate leaves out the model's load: a first batch that takes a second is not priced per token", async () => {
  const ws = await createWorkspace({}, {}, { ownCache: true });
  try {
    const { context } = ws.internals;
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const documents = [(await context.documents.get(doc.id))!];
    const questions = resolveQuestions("h.json", await loadQuestionsFile(QUESTIONS), documents);
    const { variants, topK } = await planVariants(context, { sweep: SWEEP });
    const real = await context.embedder();
    // The real embedder and cache, with a model that takes a second on its first call (its load)
    // and 10 ms on each call after it.
    let calls = 0;
    const loading: CachedEmbedder = Object.create(real, { timeModel: { value: async () => (++calls === 1 ? 1 : 0.01) } });
    const estimate = await estimateRun(context, loading, { documents, variants, topK, questions, dryRun: false });
    assert.equal(calls, 3, "a first batch, then two timed ones");
    assert.ok(estimate.time.newEmbeddingTokens > 1000);
    // 32 sentences of at least one token each in 10 ms: the load's second is in no rate.
    assert.ok(estimate.time.embedSecondsPerToken! <= 0.01 / 32, `${estimate.time.embedSecondsPerToken} s per token`);
    assert.ok(estimate.seconds < 0.5 + estimate.runs * estimate.time.runSeconds + estimate.time.variants * estimate.time.scoringSeconds);
  } finally {
    await ws.cleanup();
  }
});
