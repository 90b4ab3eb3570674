import { test } from "node:test";
import assert from "node:assert/strict";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { countTokens } from "../../src/text/tokens.js";
import { renderHtmlReport, renderMarkdownReport } from "../../src/reports/render.js";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";

test("bench ranks once at depth 10: the top_k answer is its prefix, every cut is scored, tokens and chunk health are recorded", async () => {
  const ws = await createWorkspace();
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 10);
    const e = await ws.app.bench({
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "h.json",
      strategies: ["recursive", "fixed_size", "recursive@retrieval=hybrid", "semantic_parent_child"],
      topK: 3,
    });
    const results = await ws.app.experimentResults(e.experimentId);
    for (const [strategy, list] of Object.entries(results)) {
      for (const r of list) {
        assert.ok(r.retrieved.length <= 3, "the answer reads top_k chunks");
        const cuts = new Map(r.rankCuts!.map((c) => [c.k, c]));
        assert.deepEqual([...cuts.keys()], [1, 3, 5, 10]);
        // The cut at top_k is the experiment's own recall and reciprocal rank: the answer's chunks are the ranking's first three.
        assert.equal(cuts.get(3)!.recall, r.metrics.recall, `${strategy}: recall@3 is the recall of the top 3`);
        assert.equal(cuts.get(3)!.reciprocalRank, r.metrics.reciprocalRank, `${strategy}: MRR@3`);
        assert.ok(cuts.get(10)!.recall >= cuts.get(3)!.recall && cuts.get(3)!.recall >= cuts.get(1)!.recall, "deeper cuts cover at least as much");
        assert.equal(
          r.retrievedTokens,
          r.retrieved.reduce((n, c) => n + countTokens(c.text), 0),
          "tokens retrieved: the answer's context",
        );
      }
      // `ask` at top_k 3 answers from the same three chunks the bench scored (hybrid and parent-child gather candidates for the deeper ranking either way).
      for (const r of list) {
        const asked = await ws.app.ask({ documentId: e.documentId, strategy, question: r.question, topK: 3 });
        assert.deepEqual(
          asked.retrievedChunks.map((c) => c.chunkId),
          r.retrieved.map((c) => c.chunkId),
          `${strategy}: ask and bench retrieve alike for "${r.question}"`,
        );
      }
      const m = e.aggregateMetrics[strategy]!;
      assert.deepEqual(
        m.rankMetrics!.map((c) => c.k),
        [1, 3, 5, 10],
      );
      assert.ok(Math.abs(m.rankMetrics![1]!.recall! - m.avgRecall!) < 1e-12, "Recall@3 averages to the experiment's recall at top_k 3");
      assert.ok(m.rankMetrics![0]!.confidenceIntervals.ndcg, "intervals where the other metrics have them");
      assert.ok(m.avgRetrievedTokens! > 0 && m.retrievedTokensInterval![0] <= m.avgRetrievedTokens!);
    }
    const health = e.details.chunkHealth!;
    assert.deepEqual(
      Object.keys(health).sort(),
      ["fixed_size", "recursive", "semantic_parent_child"],
      "one entry per index (hybrid search shares recursive's)",
    );
    assert.ok(health.fixed_size!.midSentenceShare! > health.recursive!.midSentenceShare!, "fixed windows ignore sentences; the recursive splitter keeps them");
    assert.equal(health.recursive!.targetTokens, 256);
    assert.deepEqual(e.details.chunkWarnings, []);
    const report = { metrics: ws.app.metrics, experiment: await ws.app.getExperiment(e.experimentId), results };
    assert.match(renderMarkdownReport(report), /\| recursive( ★)? \| nDCG@k \| \d\.\d{3} \[/);
    const html = renderHtmlReport(report, "technical");
    assert.match(html, /Ranking at k = 1, 3, 5, 10/);
    assert.match(html, /<h3>Chunk health<\/h3>/);
  } finally {
    await ws.cleanup();
  }
});

test("bench warns when the comparison cannot tell strategies apart: identical chunks, a document shorter than one chunk", async () => {
  const ws = await createWorkspace();
  try {
    const text = "The ferry leaves at seven. It returns at noon. Tickets cost four euros.\n";
    const e = await ws.app.bench({
      document: { filename: "ferry.txt", bytes: Buffer.from(text) },
      questions: [{ question: "When does the ferry leave?", expectedAnswer: null, references: [{ text: "The ferry leaves at seven." }] }],
      questionsSource: "inline",
      strategies: ["recursive", "recursive@chunk_overlap=0", "fixed_size"],
      topK: 1,
    });
    const warnings = e.details.chunkWarnings!;
    assert.ok(
      warnings.some((w) => /^recursive, recursive@chunk_overlap=0 and fixed_size made identical chunks/.test(w)),
      warnings.join("\n"),
    );
    assert.ok(
      warnings.some((w) => /^ferry\.txt is shorter than one chunk of recursive, recursive@chunk_overlap=0 and fixed_size/.test(w)),
      warnings.join("\n"),
    );
    // Every report shows the warnings next to the headline they qualify, in the words bench prints.
    const report = { metrics: ws.app.metrics, experiment: await ws.app.getExperiment(e.experimentId), results: await ws.app.experimentResults(e.experimentId) };
    const escapeHtml = (t: string) => t.replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const markdown = renderMarkdownReport(report);
    const afterHeadline = markdown.slice(markdown.indexOf(`**${e.headline}**`));
    for (const w of warnings) {
      assert.ok(afterHeadline.indexOf(`Warning: ${w}`) >= 0 && afterHeadline.indexOf(`Warning: ${w}`) < afterHeadline.indexOf("| strategy |"), markdown);
      for (const view of ["managerial", "technical"] as const) {
        const html = renderHtmlReport(report, view);
        const headlineAt = html.indexOf(`<strong>${escapeHtml(e.headline)}</strong></p>`);
        const warningAt = html.indexOf(`<p class="error">Warning: ${escapeHtml(w)}</p>`);
        assert.ok(headlineAt >= 0 && warningAt > headlineAt && warningAt - headlineAt < 2000, `${view}: the warning follows the headline`);
      }
    }
  } finally {
    await ws.cleanup();
  }
});

test("bench: negative controls do not make up the minimum of questions, and a chunk warning about the best keeps the headline from recommending", async () => {
  const ws = await createWorkspace();
  try {
    const facts = [
      "The ferry leaves at seven.",
      "It returns at noon.",
      "Tickets cost four euros.",
      "Dogs travel free.",
      "The cafe opens at six.",
      "Bikes cost two euros.",
    ];
    const answerable = facts.map((f) => ({ question: `What about ${f.split(" ").slice(1, 3).join(" ")}?`, expectedAnswer: null, references: [{ text: f }] }));
    const negatives = Array.from({ length: 8 }, (_, i) => ({ question: `Who painted mural ${i}?`, expectedAnswer: null, references: [], answerable: false }));
    const e = await ws.app.bench({
      document: { filename: "ferry.txt", bytes: Buffer.from(facts.join(" ") + "\n") },
      questions: [...answerable, ...negatives],
      questionsSource: "inline",
      strategies: ["structure", "recursive@chunk_size=8:chunk_overlap=0:retrieval=keyword"],
      topK: 1,
    });
    assert.deepEqual(
      e.comparisons.map((c) => [c.questions, c.answerableQuestions, c.significant]),
      [[14, 6, false]],
    );
    assert.ok(
      e.details.chunkWarnings!.some((w) => w.startsWith("ferry.txt is shorter than one chunk of structure")),
      e.details.chunkWarnings!.join("\n"),
    );
    assert.doesNotMatch(e.headline, /^Use /);
    assert.match(e.verdict, /at least 10 answerable questions are needed to tell, negative controls not counted, and 6 were asked/);
    assert.doesNotMatch(e.verdict, /recall not shown to differ/, "nothing can be significant on 6 answerable questions");
    const report = { metrics: ws.app.metrics, experiment: await ws.app.getExperiment(e.experimentId), results: await ws.app.experimentResults(e.experimentId) };
    assert.match(
      renderHtmlReport(report, "managerial"),
      /lower \(95 % interval of the difference [^)]*\): too few questions to tell \(6 answerable; at least 10 are needed\)/,
    );
  } finally {
    await ws.cleanup();
  }
});

test("bench warns when top_k reaches every chunk a strategy made and the search returns them all: recall is trivially 1", async () => {
  const ws = await createWorkspace();
  try {
    const text = Array.from({ length: 12 }, (_, i) => `Pier ${i} opens at ${i + 6} in the morning and closes at ${i + 1} at night.`).join(" ") + "\n";
    const bench = (strategies: string[]) =>
      ws.app.bench({
        document: { filename: "piers.txt", bytes: Buffer.from(text) },
        questions: [{ question: "When does pier 3 open?", expectedAnswer: null, references: [{ text: "Pier 3 opens at 9 in the morning" }] }],
        questionsSource: "inline",
        strategies,
        topK: 5,
      });
    const [coarse, fine] = ["recursive@chunk_size=64:chunk_overlap=0", "recursive@chunk_size=32:chunk_overlap=0"];
    // A dense search returns every chunk there is, up to top_k: the coarse variant's recall says nothing.
    const dense = await bench([`${coarse}:retrieval=dense`, fine]);
    const chunks = (s: string) => dense.details.chunkHealth![s]!.chunks;
    assert.ok(chunks(coarse) > 1 && chunks(coarse) <= 5 && chunks(fine) > 5, `${chunks(coarse)} and ${chunks(fine)} chunks`);
    assert.deepEqual(
      dense.details.chunkWarnings!.filter((w) => w.startsWith("top_k")),
      [
        `top_k 5 is at least the ${chunks(coarse)} chunks ${coarse}:retrieval=dense makes of the documents searched: ` +
          "every dense or hybrid search returns all of them, so recall is trivially 1 and the comparison cannot tell strategies apart.",
      ],
    );
    assert.doesNotMatch(dense.headline, /^Use /);
    // The workspace's keyword search returns only the chunks sharing a term with the question: it still chooses, no warning.
    const e = await bench([coarse, fine]);
    assert.deepEqual(
      e.details.chunkWarnings!.filter((w) => w.startsWith("top_k")),
      [],
    );
    // Searched by keywords only, no question was embedded: the shared time says warming up alone, not "embedding the 0 questions".
    assert.equal(e.details.sharedSeconds!.questionsEmbedded, 0);
    const report = { metrics: ws.app.metrics, experiment: await ws.app.getExperiment(e.experimentId), results: await ws.app.experimentResults(e.experimentId) };
    for (const rendered of [renderMarkdownReport(report), renderHtmlReport(report, "technical")]) {
      assert.match(rendered, /warming up/);
      assert.doesNotMatch(rendered, /embedding the 0 questions/);
    }
  } finally {
    await ws.cleanup();
  }
});
