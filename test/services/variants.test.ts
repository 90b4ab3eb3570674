import { test } from "node:test";
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
import assert from "node:assert/strict";
import { expandSweep, formatVariantKey, parseSweepSpec, parseVariantKey, splitVariantSpec, sweepGridSize } from "../../src/domain/variant-key.js";
import { CachedEmbedder } from "../../src/embedders/cache.js";
import type { Embedder } from "../../src/embedders/embedder.js";
import { EmbeddingCacheRepo, openCacheDatabase } from "../../src/stores/sqlite/cache-repos.js";
import { direct, serialised } from "../../src/stores/sqlite/connection.js";
import { BenchmarkError, ChunkingError, ValidationError } from "../../src/errors.js";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";
import { renderHtmlReport, renderMarkdownReport } from "../../src/reports/render.js";
import { sweepDecision } from "../../src/services/benchmarking/sweep-estimate.js";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";

const expandSweepSpec = (spec: string) => expandSweep(parseSweepSpec(spec));

test("variant keys: parsing, formatting and the sweep grid in row-major order", () => {
  assert.deepEqual(splitVariantSpec("recursive"), { strategy: "recursive", parameters: [] });
  assert.deepEqual(splitVariantSpec("recursive@chunk_size=512:chunk_overlap=0"), {
    strategy: "recursive",
    parameters: [
      ["chunk_size", "512"],
      ["chunk_overlap", "0"],
    ],
  });
  assert.throws(() => splitVariantSpec("recursive@"), /nothing after "@"/);
  assert.throws(() => splitVariantSpec("recursive@chunk_size"), /"chunk_size" is not parameter=value/);
  assert.equal(
    formatVariantKey("recursive", [
      ["chunk_size", 128],
      ["retrieval", "hybrid"],
    ]),
    "recursive@chunk_size=128:retrieval=hybrid",
  );
  assert.deepEqual(parseVariantKey("recursive@chunk_size=128:retrieval=hybrid"), {
    strategy: "recursive",
    parameters: [
      ["chunk_size", 128],
      ["retrieval", "hybrid"],
    ],
  });
  assert.deepEqual(expandSweepSpec("recursive:chunk_size=128,256,512:chunk_overlap=0,32"), [
    "recursive@chunk_size=128:chunk_overlap=0",
    "recursive@chunk_size=128:chunk_overlap=32",
    "recursive@chunk_size=256:chunk_overlap=0",
    "recursive@chunk_size=256:chunk_overlap=32",
    "recursive@chunk_size=512:chunk_overlap=0",
    "recursive@chunk_size=512:chunk_overlap=32",
  ]);
  assert.throws(() => expandSweepSpec("recursive"), /sweeps nothing/);
  assert.throws(() => expandSweepSpec("recursive:chunk_size=1:chunk_size=2"), /swept twice/);
  assert.throws(() => expandSweepSpec("recursive:chunk_size=128,"), /not parameter=value,value/);
  // Its size is known before the grid is built: six axes of twelve values, 2,985,984 points.
  const axis = (p: string) => `${p}=${Array.from({ length: 12 }, (_, i) => i).join(",")}`;
  assert.equal(sweepGridSize(parseSweepSpec(`recursive:${["a", "b", "c", "d", "e", "f"].map(axis).join(":")}`)), 12 ** 6);
  assert.equal(sweepGridSize(parseSweepSpec("recursive:chunk_size=1,1,2:chunk_overlap=0")), 2, "repeated values count once");
});

test("variants resolve to stable keys: defaults collapse to the plain name, bad parameters name the variant", async () => {
  // The configured search mode is every strategy's default (none has its own): dense here, keyword below.
  const ws = await createWorkspace({ retrieval: "dense" });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const keys = async (strategies: string, extra: { sweep?: string[]; topK?: number | number[] } = {}) =>
      (await ws.app.estimateBench({ document: { id: doc.id }, questions: [{ question: "q?", expectedAnswer: null, references: [] }], strategies, ...extra }))
        .variants;
    assert.deepEqual(await keys("recursive,recursive@chunk_size=256,recursive@chunk_overlap=0:chunk_size=512,recursive@retrieval=dense"), [
      "recursive",
      "recursive@chunk_size=512:chunk_overlap=0",
    ]);
    assert.deepEqual(await keys("contextual_retrieval@retrieval=dense,contextual_retrieval@retrieval=hybrid"), [
      "contextual_retrieval",
      "contextual_retrieval@retrieval=hybrid",
    ]);
    assert.deepEqual(await keys("semantic@breakpoint_percentile=95,fixed_size@retrieval=keyword:top_k=3"), [
      "semantic@breakpoint_percentile=95",
      "fixed_size@retrieval=keyword:top_k=3",
    ]);
    assert.deepEqual(
      await keys("recursive", { topK: [3, 5, 10] }),
      ["recursive@top_k=3", "recursive", "recursive@top_k=10"],
      "the configured top_k (5) is the plain strategy",
    );
    assert.equal((await keys("all")).length, 6, "all is every built-in strategy");
    assert.equal((await keys("recursive", { sweep: ["recursive:chunk_size=128,256,512:chunk_overlap=0,32"] })).length, 6, "recursive is in the grid already");

    const refused = async (strategies: string, pattern: RegExp, ErrorClass: Function = ValidationError) => {
      await assert.rejects(
        ws.app.bench({
          document: { id: doc.id },
          questions: [{ question: "q?", expectedAnswer: null, references: [] }],
          questionsSource: "q",
          strategies,
          dryRun: true,
        }),
        (error: Error) => {
          assert.ok(error instanceof ErrorClass, `${error.name}: ${error.message}`);
          assert.match(error.message, pattern);
          return true;
        },
      );
    };
    await refused(
      "recursive@chunk_sze=128",
      /variant "recursive@chunk_sze=128": unknown parameter "chunk_sze" \(valid for recursive: chunk_size, chunk_overlap, embedder, retrieval, top_k\)/,
    );
    await refused("recursive@chunk_size=abc", /variant "recursive@chunk_size=abc": parameter "chunk_size" must be a number/);
    await refused("recursive@chunk_size=32:chunk_overlap=32", /variant "recursive@chunk_size=32:chunk_overlap=32": .*chunk_overlap/);
    await refused("recursive@retrieval=fuzzy", /retrieval must be one of dense, keyword, hybrid/);
    await refused("recursive@top_k=0", /variant "recursive@top_k=0": top_k must be/);
    await refused("recursive@chunk_size=128:chunk_size=256", /"chunk_size" is given twice/);
    await refused("recursve@chunk_size=128", /unknown strategy "recursve"/, BenchmarkError);
    await assert.rejects(ws.app.process(doc.id, "nope@chunk_size=1"), ChunkingError);
    await assert.rejects(
      ws.app.bench({
        document: { id: doc.id },
        questions: [{ question: "q?", expectedAnswer: null, references: [] }],
        questionsSource: "q",
        sweep: ["recursive:chunk_size=100,200,300:chunk_overlap=0,10"],
        maxVariants: 5,
        dryRun: true,
      }),
      /6 variants, more than the limit of 5; .*--max-variants 6/,
    );
    assert.equal((await ws.app.listExperiments({ offset: 0, limit: 50 })).total, 0, "nothing stored");
  } finally {
    await ws.cleanup();
  }
});

test("one search mode for every strategy, by embedder unless configured; --retrievers runs each variant under each mode", async () => {
  const ws = await createWorkspace(); // the hash embedder: keyword by default (retrieval auto)
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const keys = async (strategies: string, retrievers?: Array<"dense" | "keyword" | "hybrid">) =>
      (await ws.app.estimateBench({ document: { id: doc.id }, questions: [{ question: "q?", expectedAnswer: null, references: [] }], strategies, retrievers }))
        .variants;
    assert.deepEqual(await keys("recursive@retrieval=keyword,contextual_retrieval@retrieval=keyword,recursive@retrieval=dense"), [
      "recursive",
      "contextual_retrieval",
      "recursive@retrieval=dense",
    ]);
    assert.deepEqual(await keys("recursive,structure@max_tokens=128", ["dense", "keyword", "hybrid"]), [
      "recursive@retrieval=dense",
      "recursive",
      "recursive@retrieval=hybrid",
      "structure@max_tokens=128:retrieval=dense",
      "structure@max_tokens=128",
      "structure@max_tokens=128:retrieval=hybrid",
    ]);
    // A variant that names its own mode keeps it; the grid's size counts the retrievers before anything is resolved.
    assert.deepEqual(await keys("recursive@retrieval=hybrid", ["dense", "keyword"]), ["recursive@retrieval=hybrid"]);
    await assert.rejects(
      ws.app.estimateBench({
        document: { id: doc.id },
        questions: [{ question: "q?", expectedAnswer: null, references: [] }],
        strategies: "all",
        retrievers: ["dense", "keyword", "hybrid"],
        maxVariants: 17,
      }),
      /18 variants, more than the limit of 17/,
    );
    await assert.rejects(
      ws.app.estimateBench({
        document: { id: doc.id },
        questions: [{ question: "q?", expectedAnswer: null, references: [] }],
        strategies: "recursive",
        retrievers: ["bm25" as "dense"],
      }),
      /unknown retriever "bm25" \(valid: dense, keyword, hybrid\)/,
    );
  } finally {
    await ws.cleanup();
  }
});

test("embedding cache: concurrent calls needing the same texts embed each once, and metered views count their own", async () => {
  const ws = await createWorkspace();
  try {
    const seen: string[] = [];
    const inner: Embedder = {
      name: "counting",
      async embed(texts) {
        seen.push(...texts);
        await new Promise((r) => setTimeout(r, 20));
        return texts.map((t) => Float32Array.from([t.length, 1]));
      },
      async close() {},
    };
    const db = openCacheDatabase(`${ws.dir}/cache.db`);
    try {
      const shared = new CachedEmbedder(inner, serialised(new EmbeddingCacheRepo(db), direct), 8);
      const [a, b] = [shared.metered(), shared.metered()];
      const [va, vb] = await Promise.all([a.embed(["one", "two", "three"]), b.embed(["two", "three", "four"])]);
      assert.deepEqual([...seen].sort(), ["four", "one", "three", "two"], "no text sent twice");
      assert.deepEqual(Array.from(va[1]!), Array.from(vb[0]!));
      assert.equal(a.stats.computed + b.stats.computed, 4);
      assert.equal(a.stats.cached + b.stats.cached, 2);
      assert.equal(shared.stats.computed, 4, "the shared embedder sums its views");
      await a.embed(["one", "four"]);
      assert.equal(seen.length, 4, "the SQLite cache answers later calls");
    } finally {
      db.close();
    }
  } finally {
    await ws.cleanup();
  }
});

test("a sweep benchmarks every variant under its key, shares indexes and embeddings, and reads as the paper's tables", async () => {
  const ws = await createWorkspace({ retrieval: "dense" });
  try {
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 6);
    const input = {
      document: { filename: "handbook.docx", bytes: handbookBytes() },
      questions,
      questionsSource: "h.json",
      strategies: "recursive@retrieval=keyword,recursive@retrieval=hybrid",
      sweep: ["recursive:chunk_size=128,256:chunk_overlap=0,32"],
      topK: 3,
    };
    const e = await ws.app.bench(input);
    const grid = ["recursive@chunk_size=128:chunk_overlap=0", "recursive@chunk_size=128", "recursive@chunk_overlap=0", "recursive"];
    assert.deepEqual(e.strategiesUsed, ["recursive@retrieval=keyword", "recursive@retrieval=hybrid", ...grid]);
    assert.deepEqual(Object.keys(e.aggregateMetrics), e.strategiesUsed);
    assert.ok(e.strategiesUsed.includes(e.bestStrategy));
    assert.equal(e.comparisons.length, 5);
    // Retrieval variants search the plain strategy's chunks: four indexes for six variants.
    assert.deepEqual(e.details.indexing.map((x) => x.strategy).sort(), [...grid].sort());
    assert.deepEqual(e.details.search!["recursive@retrieval=keyword"], { retrieval: "keyword", topK: 3 });
    assert.deepEqual(e.details.strategyOptions["recursive@chunk_size=128"], { chunk_size: 128, chunk_overlap: 32 });
    const results = await ws.app.experimentResults(e.experimentId);
    assert.ok(
      results["recursive@retrieval=keyword"]!.every((r) => r.latency.embedSeconds === 0 && r.retrieved.length > 0),
      "keyword search embeds nothing and finds chunks",
    );
    assert.notDeepEqual(
      results["recursive@retrieval=keyword"]!.map((r) => r.retrieved.map((c) => c.chunkId)),
      results.recursive!.map((r) => r.retrieved.map((c) => c.chunkId)),
      "BM25 ranks differently from dense search",
    );
    const doc = await ws.app.getDocument(e.documentId);
    assert.deepEqual(Object.keys(doc.chunkCounts).sort(), [...grid].sort(), "each index is stored under its variant key");

    // Re-run: every index is reused and nothing is embedded again (the questions are cached too).
    const again = await ws.app.bench(input);
    assert.ok(again.details.indexing.every((x) => x.reused));
    assert.equal(again.details.embeddings.computed, 0);
    assert.deepEqual(again.strategiesUsed, e.strategiesUsed);
    // `process` with a variant equal to a benchmarked one finds nothing new to embed either.
    const processed = await ws.app.process(e.documentId, [
      "recursive@chunk_size=128:chunk_overlap=0",
      "recursive@chunk_overlap=0:chunk_size=128:retrieval=hybrid",
    ]);
    assert.deepEqual(
      processed.strategiesCompleted.map((s) => s.strategy),
      ["recursive@chunk_size=128:chunk_overlap=0"],
      "one index, processed once",
    );

    const technical = renderHtmlReport({ metrics: BUILT_IN_METRICS, experiment: e, results }, "technical");
    assert.match(technical, /<h2>Sweep<\/h2>/);
    assert.match(technical, /recursive: chunk_size × chunk_overlap × retrieval \(6 variants\)/);
    assert.equal((technical.match(/class="chart sweep"/g) ?? []).length, 1, "one small-multiples chart for the family");
    assert.match(technical, /recall, precision, IoU and composite against chunk_size/);
    const ci = e.aggregateMetrics["recursive@chunk_size=128"]!.confidenceIntervals.avg_recall!;
    assert.ok(technical.includes(`[${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]`), "the table carries the confidence intervals");
    const md = renderMarkdownReport({ metrics: BUILT_IN_METRICS, experiment: e, results });
    assert.match(md, /### Sweep of recursive: chunk_size × chunk_overlap × retrieval/);
    assert.match(md, /\| recursive@chunk_size=128 \| 128 \| 32 \| dense \| \d\.\d{3} \[/);
    const managerial = renderHtmlReport({ metrics: BUILT_IN_METRICS, experiment: e, results }, "managerial");
    assert.ok(managerial.includes(e.headline.replace(/'/g, "&#39;")), "the headline leads the managerial report");
    assert.match(managerial, /its lead over .* (is|is not) significant at 95 %/);
  } finally {
    await ws.cleanup();
  }
});

test("sweep guard: runs below the thresholds, asks in a terminal above them, needs --yes without one", () => {
  const estimate = {
    variants: Array.from({ length: 6 }, (_, i) => `v${i}`),
    indexes: 6,
    indexesToBuild: 6,
    questions: 10,
    runs: 60,
    costUsd: 0,
    seconds: 30,
    time: {
      newEmbeddingTokens: 0,
      embedSecondsPerToken: null,
      runs: 60,
      runSeconds: 0.5,
      runRate: "measured" as const,
      llmCalls: 0,
      variants: 6,
      scoringSeconds: 0.05,
    },
    includes: "",
  };
  assert.deepEqual(sweepDecision(estimate, { yes: false, interactive: false }), { run: true, ask: false });
  const big = { ...estimate, variants: Array.from({ length: 20 }, (_, i) => `v${i}`), costUsd: 3 };
  assert.deepEqual(sweepDecision(big, { yes: false, interactive: true }), { run: true, ask: true });
  assert.deepEqual(sweepDecision(big, { yes: true, interactive: false }), { run: true, ask: false });
  const refused = sweepDecision(big, { yes: false, interactive: false });
  assert.equal(refused.run, false);
  assert.match((refused as { reason: string }).reason, /20 variants \(more than 12\), about \$3\.00 \(more than \$1\); pass --yes/);
});
