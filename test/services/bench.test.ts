import { test } from "node:test";
import assert from "node:assert/strict";
import { loadQuestionsFile, validateQuestions } from "../../src/evaluators/questions.js";
import { BenchmarkError, CancelledError, ValidationError } from "../../src/errors.js";
import { createWorkspace } from "../helpers/workspace.js";
import { buildDocx, handbookBytes } from "../helpers/documents.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { fastestLine } from "../../src/reports/render.js";

// Faithfulness and the hallucination rate are null here: the extractive generator copies its answers from the context.
const SPEC_METRICS = ["avgAnswerSimilarity", "totalQuestions", "failedQuestions"];

test("bench: an experiment with every spec field, stored with its per-question results, reused caches on re-run", async () => {
  const ws = await createWorkspace();
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 8);
    const input = {
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "h.json",
      strategies: ["recursive", "semantic_parent_child"],
      topK: 3,
    };
    const e = await ws.app.bench(input);
    assert.match(e.experimentId, /^exp_/);
    assert.deepEqual(e.strategiesUsed, ["recursive", "semantic_parent_child"]);
    assert.equal(e.questionsCount, 8);
    assert.ok(e.strategiesUsed.includes(e.bestStrategy));
    for (const s of e.strategiesUsed) {
      const m = e.aggregateMetrics[s]!;
      for (const k of SPEC_METRICS) assert.equal(typeof (m as any)[k], "number", `${s}.${k}`);
      assert.equal(m.totalQuestions, 8);
      assert.equal(m.failedQuestions, 0);
      assert.ok(m.avgRecall! > 0.5 && m.hitRate! > 0.5);
      assert.deepEqual([m.avgFaithfulness, m.hallucinationRate], [null, null]);
      assert.match(m.missing.avg_faithfulness!, /answers are copied from the retrieved context \(extractive generator\)/);
      assert.equal(m.missing.hallucination_rate, m.missing.avg_faithfulness);
      // The hash embedder is word overlap: the offline judge has no evidence its retrieval did not use.
      assert.equal(m.avgContextRelevance, null);
      assert.match(m.missing.avg_context_relevance!, /the hash embedder is word overlap/);
      assert.ok(m.confidenceIntervals.composite_score && m.confidenceIntervals.avg_recall, "intervals for measured metrics");
    }
    assert.equal(e.comparisons.length, 1);
    assert.equal(e.comparisons[0]!.questions, 8);
    assert.match(e.verdict, new RegExp(`^${e.bestStrategy} scored highest; its lead over ${e.comparisons[0]!.strategy} is (not )?significant at 95 %`));
    const shared = e.details.sharedSeconds!;
    assert.ok(
      Math.abs(
        e.totalLatencySeconds -
          shared.questionEmbedding -
          shared.warmUp -
          Object.values(await ws.app.experimentResults(e.experimentId))
            .flat()
            .reduce((n, r) => n + r.latency.totalSeconds, 0),
      ) < 1e-9,
      "the total is every question's latency plus the shared work",
    );
    assert.equal(e.estimatedCostUsd, 0, "local providers cost nothing");
    assert.ok(e.details.cost.referenceUsd > 0, "what it would cost on a hosted model is shown");
    const results = await ws.app.experimentResults(e.experimentId);
    assert.equal(results.recursive!.length, 8);
    const first = results.semantic_parent_child![0]!;
    assert.ok(first.retrieved.every((c) => c.parentId !== null));
    assert.ok(first.answer && first.references.length === 1);
    assert.deepEqual(
      (await ws.app.listExperiments({ offset: 0, limit: 50 })).items.map((x) => x.id),
      [e.experimentId],
    );

    // Same inputs again: the document is reused (same bytes), chunks reused, nothing re-embedded.
    const again = await ws.app.bench(input);
    assert.equal(again.documentId, e.documentId);
    assert.ok(again.details.indexing.every((x) => x.reused));
    assert.equal(again.details.embeddings.computed, 0);
    for (const s of e.strategiesUsed) {
      const [a, b] = [again.aggregateMetrics[s]!, e.aggregateMetrics[s]!];
      assert.deepEqual(
        [a.compositeScore, a.confidenceIntervals, a.missing],
        [b.compositeScore, b.confidenceIntervals, b.missing],
        "same inputs, same numbers (intervals included)",
      );
    }
    assert.equal(again.verdict, e.verdict);
    assert.equal((await ws.app.listExperiments({ offset: 0, limit: 50 })).items[0]!.id, again.experimentId, "newest first");
  } finally {
    await ws.cleanup();
  }
});

test("latency: the questions are embedded once, timed as shared work, and no strategy's figure includes it, in either order", async () => {
  const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 12);
  const lines: Array<string | undefined> = [];
  for (const order of [
    ["recursive", "fixed_size"],
    ["fixed_size", "recursive"],
  ]) {
    // A fresh data directory and cache each time: the questions' embeddings are computed, not read from the cache.
    // Dense search, which embeds the questions (keyword search, the hash embedder's default, embeds none).
    const ws = await createWorkspace({ retrieval: "dense" }, {}, { ownCache: true });
    try {
      const e = await ws.app.bench({
        document: { filename: "handbook.docx", bytes: handbookBytes() },
        questions,
        questionsSource: "h.json",
        strategies: order,
      });
      const shared = e.details.sharedSeconds!;
      assert.equal(shared.questionsEmbedded, questions.length);
      assert.ok(shared.questionEmbedding > 0 && shared.warmUp > 0);
      const results = await ws.app.experimentResults(e.experimentId);
      for (const strategy of order) {
        assert.equal(results[strategy]!.length, questions.length);
        for (const r of results[strategy]!) {
          // Before, the first strategy's searches embedded each question (the others read it from the cache).
          assert.equal(r.latency.embedSeconds, 0, `${strategy}: no question embedded in its searches`);
          assert.ok(Math.abs(r.latency.totalSeconds - r.latency.searchSeconds - r.latency.answerSeconds) < 1e-12, "search + answer, nothing else");
        }
        const m = e.aggregateMetrics[strategy]!;
        assert.ok(m.latencyInterval![0] <= m.avgLatencySeconds! && m.avgLatencySeconds! <= m.latencyInterval![1]);
      }
      lines.push(fastestLine(Object.entries(e.aggregateMetrics)));
    } finally {
      await ws.cleanup();
    }
  }
  // The ranking holds within noise: the two orders never name different strategies as clearly fastest.
  const named = lines.map((line) => line?.match(/^Fastest answers: (\S+) \(.*every other strategy's interval lies above it/)?.[1]);
  assert.ok(!(named[0] && named[1] && named[0] !== named[1]), `the orders disagree beyond the spread: ${lines.join(" | ")}`);
});

test("bench --dry-run: retrieval metrics only, with the estimated cost and time of the full run", async () => {
  const ws = await createWorkspace({ generator: "openai:gpt-4o-mini" }, { CHUNKEVAL_OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 5);
    const e = await ws.app.bench({
      document: { filename: "h.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "h.json",
      strategies: ["fixed_size"],
      dryRun: true,
    });
    const m = e.aggregateMetrics.fixed_size!;
    assert.equal(m.avgFaithfulness, null);
    assert.equal(m.avgAnswerSimilarity, null);
    assert.equal(m.avgContextRelevance, null);
    assert.ok(m.avgRecall !== null && m.mrr !== null);
    assert.ok((await ws.app.experimentResults(e.experimentId)).fixed_size!.every((r) => r.answer === null));
    assert.ok(e.details.fullRunEstimate!.costUsd > 0, "gpt-4o-mini answers are priced");
    assert.ok(e.details.fullRunEstimate!.seconds > 0);
    assert.equal(e.estimatedCostUsd, 0, "nothing was spent");
  } finally {
    await ws.cleanup();
  }
});

test("bench: answer similarity is missing, not invented, when a question has no expected answer or reference", async () => {
  const ws = await createWorkspace();
  try {
    const questions = validateQuestions("q.json", [
      { question: "Who elects the board?" },
      { question: "How much is a member share?", expected_answer: "100 euros" },
    ]);
    const e = await ws.app.bench({ document: { filename: "h.docx", bytes: handbookBytes() }, questions, questionsSource: "q.json", strategies: ["recursive"] });
    const [open, withAnswer] = (await ws.app.experimentResults(e.experimentId)).recursive!;
    assert.equal(open!.metrics.answerSimilarity, null);
    assert.equal(open!.metrics.recall, null, "no reference, no retrieval metric");
    assert.equal(typeof withAnswer!.metrics.answerSimilarity, "number");
    assert.equal(e.aggregateMetrics.recursive!.avgAnswerSimilarity, withAnswer!.metrics.answerSimilarity);
  } finally {
    await ws.cleanup();
  }
});

test("bench with the LLM judge: RAGAS-style verdicts, cached on re-run; an unparsable reply fails only its question", async () => {
  let calls = 0;
  const stub = await startOpenAiStub({
    reply: (body) => {
      calls++;
      const prompt: string = body.messages.at(-1).content;
      if (body.messages[0].role === "system") return "Board elections are held every March.";
      if (prompt.includes("How much is a member share?")) return "I refuse to answer in JSON";
      if (prompt.startsWith("Rate from 0 to 10")) return '{"score": 7}';
      if (prompt.startsWith("Break the ANSWER")) return '```json\n{"statements": ["one", "two"]}\n```';
      return '{"verdicts": [{"statement": "one", "verdict": 1}, {"statement": "two", "verdict": 0}]}';
    },
  });
  const ws = await createWorkspace({ judge: "openai:judge-model", generator: "openai:gen-model" }, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl });
  try {
    const questions = validateQuestions("q.json", [
      { question: "When are board elections held?", expected_answer: "Every March." },
      { question: "How much is a member share?", expected_answer: "100 euros" },
    ]);
    const input = { document: { filename: "h.docx", bytes: handbookBytes() }, questions, questionsSource: "q.json", strategies: ["recursive"] };
    const e = await ws.app.bench(input);
    const [ok, failed] = (await ws.app.experimentResults(e.experimentId)).recursive!;
    assert.equal(ok!.metrics.contextRelevance, 7);
    assert.equal(ok!.metrics.faithfulness, 5, "one of two statements verified");
    assert.equal(ok!.judgeTokens.totalTokens, 3 * 168);
    assert.match(failed!.error!, /judge reply for context relevance could not be parsed as JSON: "I refuse to answer in JSON"/);
    const m = e.aggregateMetrics.recursive!;
    assert.deepEqual([m.totalQuestions, m.failedQuestions, m.avgFaithfulness, m.hallucinationRate], [2, 1, 5, 0]);
    const callsAfterFirst = calls;
    const again = await ws.app.bench(input);
    // Answers are asked again (2; answers are timed, not cached); of the judge's calls only the failed question's.
    assert.equal(calls - callsAfterFirst, 3, "verdicts come from the cache");
    assert.equal((await ws.app.experimentResults(again.experimentId)).recursive![0]!.judgeTokens.totalTokens, 0, "cached verdicts cost nothing");

    const stopped = await ws.app.bench({ ...input, questions: [questions[1]!, questions[1]!, questions[0]!], maxErrors: 1 });
    assert.match(stopped.details.stoppedEarly!, /stopped after 1 failed question/);
    assert.equal(stopped.aggregateMetrics.recursive!.totalQuestions, 1);
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("a Ctrl-C during the answers or the scoring stops the run before its next step and stores nothing, even when no step waits on anything", async () => {
  const ws = await createWorkspace({ retrieval: "keyword" });
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 8);
    const document = { filename: "handbook.docx", bytes: handbookBytes() };
    const controller = new AbortController();
    let runsStarted = 0;
    const bench = ws.app.bench({
      document,
      questions,
      questionsSource: "h.json",
      strategies: ["recursive"],
      signal: controller.signal,
      onProgress: (event) => {
        // Ctrl-C as the CLI hears it: a callback the event loop runs when it gets its turn.
        if (event.stage === "answer" && event.done !== event.total && ++runsStarted === 1) setImmediate(() => controller.abort());
      },
    });
    await assert.rejects(bench, CancelledError);
    assert.ok(runsStarted <= 2, `the run went on for ${runsStarted} questions after Ctrl-C`);
    assert.equal((await ws.app.listExperiments({ offset: 0, limit: 10 })).total, 0);

    // Ctrl-C once every answer is in, while the strategies are scored: the run stops there too, and stores nothing.
    const scoring = new AbortController();
    let scoringEvents = 0;
    await assert.rejects(
      ws.app.bench({
        document,
        questions,
        questionsSource: "h.json",
        strategies: ["recursive", "fixed_size"],
        signal: scoring.signal,
        onProgress: (event) => {
          if (event.stage === "score" && ++scoringEvents === 1) setImmediate(() => scoring.abort());
        },
      }),
      CancelledError,
    );
    assert.equal(scoringEvents, 1, "stopped at the next scoring step");
    assert.equal((await ws.app.listExperiments({ offset: 0, limit: 10 })).total, 0, "nothing stored");
  } finally {
    await ws.cleanup();
  }
});

test("bench rejects what it cannot run, before storing anything", async () => {
  const ws = await createWorkspace();
  try {
    const questions = validateQuestions("q.json", [{ question: "Q?", references: ["this text is not in the handbook"] }]);
    const doc = { filename: "h.docx", bytes: handbookBytes() };
    await assert.rejects(
      ws.app.bench({ document: doc, questions, questionsSource: "q.json", strategies: "recursive" }),
      (e: unknown) => e instanceof ValidationError && /q\.json: item 1 \("Q\?"\): references\[0\]: excerpt not found/.test(e.message),
    );
    await assert.rejects(ws.app.bench({ document: doc, questions, questionsSource: "q.json", strategies: "sliding" }), BenchmarkError);
    await assert.rejects(ws.app.bench({ document: { id: "doc_missing" }, questions, questionsSource: "q.json", strategies: "all" }), /document not found/);
    assert.equal((await ws.app.listExperiments({ offset: 0, limit: 10 })).total, 0);
  } finally {
    await ws.cleanup();
  }
});

test("hybrid and keyword retrieval rank the same on every run: other documents and index upkeep do not move BM25", async () => {
  const ws = await createWorkspace();
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 10);
    const input = {
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "h.json",
      strategies: ["contextual_retrieval", "recursive@retrieval=keyword"],
      topK: 3,
    };
    const first = await ws.app.bench(input);
    // Another document in the same tables would shift BM25 statistics computed over the whole table.
    const other = await ws.app.upload({
      filename: "other.docx",
      bytes: await buildDocx([{ h: "Member shares" }, { p: "A member share costs many euros in other cooperatives, and members vote on shares." }]),
    });
    await ws.app.process(other.id, ["contextual_retrieval", "recursive"]);
    const second = await ws.app.bench(input);
    const retrieved = async (id: string) =>
      Object.values(await ws.app.experimentResults(id))
        .flat()
        .map((r) => r.retrieved.map((c) => [c.chunkId, c.score]));
    assert.deepEqual(await retrieved(second.experimentId), await retrieved(first.experimentId));
    for (const s of first.strategiesUsed) assert.equal(second.aggregateMetrics[s]!.compositeScore, first.aggregateMetrics[s]!.compositeScore, s);
  } finally {
    await ws.cleanup();
  }
});
