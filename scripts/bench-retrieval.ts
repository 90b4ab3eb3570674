/**
 * Measures retrieval on public benchmarks: every strategy under every search mode (dense, keyword,
 * hybrid), each benchmark's documents searched as one collection, retrieval metrics only (a dry
 * run: no answers, no judging). Prints span recall and IoU per (strategy, mode) cell, each cell's
 * search time per question, and each benchmark's processing time.
 *
 * BENCHMARKS_DIR holds one folder per benchmark, each with `docs/` (the collection) and
 * `questions.jsonl` (references with their document and offsets), as in the shared benchmarks
 * folder the README points to. The embedding cache lives in --cache-dir (default: a folder under
 * the system's temporary directory that outlives the run), so a second run embeds nothing again.
 *
 *   npm run bench:retrieval -- BENCHMARKS_DIR [--benchmarks chroma,covidqa-dev] [--strategies all]
 *     [--modes dense,keyword,hybrid] [--top-k 5] [--embedder use] [--hybrid-dense-weight auto|0-1] [--cache-dir DIR]
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createChunkeval } from "../src/chunkeval.js";
import { loadConfig } from "../src/config/load.js";
import type { QuestionResult } from "../src/domain/experiment.js";
import { SEARCH_MODES, type SearchMode } from "../src/domain/variant-key.js";
import { defaultSearchMode, hybridDenseWeight } from "../src/domain/default-search-mode.js";
import { loadQuestionsFile } from "../src/evaluators/questions.js";
import { STRATEGY_NAMES } from "../src/strategies/registry.js";
import { chunksKey } from "../src/domain/retriever-agreement.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    benchmarks: { type: "string" },
    strategies: { type: "string" },
    modes: { type: "string" },
    "top-k": { type: "string", default: "5" },
    embedder: { type: "string" },
    "hybrid-dense-weight": { type: "string" },
    "cache-dir": { type: "string" },
  },
});
const root = positionals[0];
if (!root || !existsSync(root)) {
  console.error("usage: npm run bench:retrieval -- BENCHMARKS_DIR [--benchmarks a,b] [--strategies s,t] [--modes dense,keyword,hybrid] [--top-k 5]");
  process.exit(2);
}
const list = (value: string | undefined) =>
  value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const benchmarks = list(values.benchmarks) ?? readdirSync(root).filter((name) => existsSync(join(root, name, "questions.jsonl")));
const strategies = list(values.strategies) ?? [...STRATEGY_NAMES];
const modes = (list(values.modes) ?? [...SEARCH_MODES]) as SearchMode[];
const unknownMode = modes.find((m) => !SEARCH_MODES.includes(m));
if (unknownMode) throw new Error(`--modes takes ${SEARCH_MODES.join(", ")}, not "${unknownMode}"`);
const topK = Number(values["top-k"]);
const cacheDir = resolve(values["cache-dir"] ?? join(tmpdir(), "chunkeval-bench-retrieval-cache"));
mkdirSync(cacheDir, { recursive: true });

const mean = (v: Array<number | null>) => {
  const known = v.filter((x): x is number => x !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
};
const fixed = (x: number | null, digits: number) => (x === null ? "n/a" : x.toFixed(digits));

for (const benchmark of benchmarks) {
  const folder = join(root, benchmark);
  const questions = await loadQuestionsFile(join(folder, "questions.jsonl"));
  const files = readdirSync(join(folder, "docs"))
    .sort()
    .map((filename) => ({ filename, bytes: readFileSync(join(folder, "docs", filename)) }));
  const dataDir = mkdtempSync(join(tmpdir(), "chunkeval-bench-retrieval-"));
  const loaded = loadConfig({
    flags: { data_dir: dataDir, cache_dir: cacheDir, embedder: values.embedder, hybrid_dense_weight: values["hybrid-dense-weight"] },
  });
  if (loaded.errors.length) throw new Error(loaded.errors.join("; "));
  const variants = strategies.flatMap((s) => modes.map((m) => `${s}${s.includes("@") ? ":" : "@"}retrieval=${m}`));
  console.log(
    `\n${benchmark}: ${files.length} documents as one collection, ${questions.length} questions, top ${topK}; ` +
      `embedder ${loaded.config.embedder}, default retrieval ${defaultSearchMode(loaded.config)}, hybrid's dense share ${hybridDenseWeight(loaded.config)}`,
  );
  const started = performance.now();
  const app = await createChunkeval(loaded.config);
  try {
    const experiment = await app.bench({
      collection: { name: benchmark, add: files },
      questions,
      questionsSource: `${benchmark}/questions.jsonl`,
      strategies: variants,
      topK,
      dryRun: true,
      maxVariants: variants.length,
    });
    const details = (await app.getExperiment(experiment.experimentId)).details;
    const results = await app.experimentResults(experiment.experimentId);
    const cell = new Map<string, QuestionResult[]>();
    for (const [key, rows] of Object.entries(results)) cell.set(`${chunksKey(key)}|${details.search?.[key]?.retrieval}`, rows);
    const header = modes.map((m) => `${m} recall   IoU  ms/q`.padStart(24)).join(" ");
    console.log(`  ${"strategy".padEnd(30)} ${header}`);
    for (const strategy of strategies) {
      const row = modes.map((mode) => {
        const rows = cell.get(`${strategy}|${mode}`) ?? [];
        const searchMs = mean(rows.map((r) => r.stageSeconds.retrieval * 1000));
        return `${fixed(mean(rows.map((r) => r.metrics.recall)), 3).padStart(14)} ${fixed(mean(rows.map((r) => r.metrics.iou)), 3).padStart(5)} ${fixed(searchMs, 1).padStart(5)}`;
      });
      console.log(`  ${strategy.padEnd(30)} ${row.join(" ")}`);
    }
    console.log(
      `  processing ${details.stageSeconds.processing.toFixed(1)} s, retrieval ${details.stageSeconds.retrieval.toFixed(1)} s, ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s in all`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
