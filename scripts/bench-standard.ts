/**
 * Benchmarks the second evaluation corpus (examples/standard/, a water authority's technical
 * standard in four formats, searched as one collection) with questions/standard.json, every
 * built-in strategy, at top_k 1 and 5, on the default offline stack. For the dev and the heldout
 * half of the questions separately (and both together) it prints per strategy: span recall, hit
 * rate, context relevance and answer similarity; and over the (strategy, question) pairs, the
 * Spearman correlation of context relevance with span recall and of answer similarity with span
 * recall: whether the judge's scores track ground truth on text it was not tuned on.
 *
 * `--corpus example` runs the example corpus instead (examples/corpus/, five documents in five
 * formats, questions/corpus.json, written as a reader would ask them; no split: "all" only), and
 * `--strategies` takes a comma-separated list of variants instead of every built-in strategy.
 * `--benchmark DIR` runs a public benchmark instead: DIR holds `docs/` (searched as one collection)
 * and `questions.jsonl` (references with their document and offsets), as in the shared benchmarks
 * folder bench:retrieval reads; `--every N` keeps every Nth question (a long benchmark judges every
 * question of every strategy twice: COVID-QA's developers' half, every 4th question, takes about 35
 * minutes on two cores).
 *
 *   npm run bench:standard [-- --embedder hash] [--corpus example] [--strategies recursive,fixed_size]
 *   npm run bench:standard -- --benchmark ../shared/benchmarks/covidqa-dev --every 4
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { createChunkeval } from "../src/chunkeval.js";
import { loadConfig } from "../src/config/load.js";
import type { QuestionResult } from "../src/domain/experiment.js";
import { loadQuestionsFile } from "../src/evaluators/questions.js";
import { STANDARD_FILES } from "../examples/build-standard.js";
import { spearman } from "../test/helpers/rank-correlation.js";

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const { values } = parseArgs({
  options: {
    embedder: { type: "string" },
    corpus: { type: "string", default: "standard" },
    strategies: { type: "string" },
    benchmark: { type: "string" },
    every: { type: "string", default: "1" },
  },
});
const CORPORA = {
  standard: {
    name: "fenmoor-standard",
    questions: "questions/standard.json",
    files: () => Object.values(STANDARD_FILES).map((filename) => `examples/standard/${filename}`),
  },
  example: { name: "example-corpus", questions: "questions/corpus.json", files: () => readdirSync(root("examples/corpus")).map((f) => `examples/corpus/${f}`) },
};
const every = Number(values.every);
if (!Number.isInteger(every) || every < 1) {
  console.error(`--every takes a whole number of at least 1, not "${values.every}"`);
  process.exit(2);
}
const benchmark = values.benchmark === undefined ? undefined : resolve(values.benchmark);
if (benchmark && !(existsSync(join(benchmark, "docs")) && existsSync(join(benchmark, "questions.jsonl")))) {
  console.error(`--benchmark takes a folder with docs/ and questions.jsonl (as in ../shared/benchmarks/chroma); ${benchmark} lacks one or both`);
  process.exit(2);
}
const corpus = benchmark
  ? {
      name: basename(benchmark),
      questions: join(benchmark, "questions.jsonl"),
      files: () => readdirSync(join(benchmark, "docs")).map((f) => join(benchmark, "docs", f)),
    }
  : CORPORA[values.corpus as keyof typeof CORPORA];
if (!corpus) throw new Error(`--corpus takes ${Object.keys(CORPORA).join(" or ")}, not "${values.corpus}"`);
const strategies = values.strategies ? values.strategies.split(",").map((s) => s.trim()) : "all";
const dataDir = mkdtempSync(join(tmpdir(), "chunkeval-bench-standard-"));
const loaded = loadConfig({ flags: { data_dir: dataDir, embedder: values.embedder } });
if (loaded.errors.length) throw new Error(loaded.errors.join("; "));
const fromRepo = (path: string) => (benchmark ? path : root(path));
const questions = (await loadQuestionsFile(fromRepo(corpus.questions))).filter((_, i) => i % every === 0);
const splitOf = new Map(questions.map((q) => [q.question, q.split ?? "none"]));
const files = corpus.files().map((path) => ({ filename: path.split("/").pop()!, bytes: readFileSync(fromRepo(path)) }));

const mean = (v: Array<number | null>) => {
  const known = v.filter((x): x is number => x !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
};
const fixed = (x: number | null, digits: number) => (x === null ? "n/a" : x.toFixed(digits));
/** Spearman over the pairs where both metrics are known. */
const correlation = (rows: QuestionResult[], metric: "contextRelevance" | "answerSimilarity") => {
  const pairs = rows.filter((r) => r.metrics[metric] !== null && r.metrics.recall !== null);
  return {
    rho: spearman(
      pairs.map((r) => r.metrics[metric]!),
      pairs.map((r) => r.metrics.recall!),
    ),
    n: pairs.length,
  };
};

console.log(
  `${questions.length} questions (${questions.filter((q) => q.split === "dev").length} dev, ${questions.filter((q) => q.split === "heldout").length} heldout) on ${files.length} documents; embedder ${loaded.config.embedder}, generator ${loaded.config.generator}, judge ${loaded.config.judge}`,
);
const started = performance.now();
const app = await createChunkeval(loaded.config);
try {
  for (const topK of [1, 5]) {
    const e = await app.bench({
      collection: { name: corpus.name, add: files },
      questions,
      questionsSource: corpus.questions,
      strategies,
      topK,
    });
    const results = await app.experimentResults(e.experimentId);
    const hasSplit = questions.some((q) => q.split);
    for (const split of hasSplit ? ["dev", "heldout", "all"] : ["all"]) {
      const inSplit = (r: QuestionResult) => split === "all" || splitOf.get(r.question) === split;
      console.log(`\ntop_k ${topK}, ${split} questions`);
      console.log(`  ${"strategy".padEnd(24)} ${"recall".padStart(7)} ${"hit".padStart(6)} ${"ctx rel".padStart(8)} ${"ans sim".padStart(8)}`);
      const pairs: QuestionResult[] = [];
      for (const [strategy, rows] of Object.entries(results)) {
        const mine = rows.filter(inSplit);
        pairs.push(...mine);
        const avg = (m: keyof QuestionResult["metrics"]) => mean(mine.map((r) => r.metrics[m]));
        console.log(
          `  ${strategy.padEnd(24)} ${fixed(avg("recall"), 3).padStart(7)} ${fixed(avg("hit"), 3).padStart(6)} ${fixed(avg("contextRelevance"), 2).padStart(8)} ${fixed(avg("answerSimilarity"), 2).padStart(8)}`,
        );
      }
      const cr = correlation(pairs, "contextRelevance");
      const as = correlation(pairs, "answerSimilarity");
      console.log(`  Spearman(context relevance, span recall) = ${fixed(cr.rho, 3)} over ${cr.n} (strategy, question) pairs`);
      console.log(`  Spearman(answer similarity, span recall) = ${fixed(as.rho, 3)} over ${as.n} (strategy, question) pairs`);
    }
  }
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
