/**
 * Benchmarks the large bundled example with its questions over all built-in strategies on the
 * default offline stack, twice over the same data directory, and prints for each run: wall
 * time split into processing, retrieval, generation and judging; embeddings computed vs
 * served from the cache; and the process's peak resident memory (worker threads included).
 *
 *   npm run bench:benchmark [-- --embedder hash]
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createChunkeval } from "../src/chunkeval.js";
import { loadConfig } from "../src/config/load.js";
import { loadQuestionsFile } from "../src/evaluators/questions.js";
import { STRATEGY_NAMES } from "../src/strategies/registry.js";

const { values } = parseArgs({ options: { embedder: { type: "string" } } });
const dataDir = mkdtempSync(join(tmpdir(), "chunkeval-bench-"));
const loaded = loadConfig({ flags: { data_dir: dataDir, embedder: values.embedder } });
if (loaded.errors.length) throw new Error(loaded.errors.join("; "));
const questions = await loadQuestionsFile(new URL("../questions/harbor-light-handbook.json", import.meta.url).pathname);
const bytes = readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url));

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
console.log(
  `${questions.length} questions x ${STRATEGY_NAMES.length} strategies; embedder ${loaded.config.embedder} (${loaded.config.embedderWorkers} workers), generator ${loaded.config.generator}, judge ${loaded.config.judge}`,
);

for (const label of ["first run (empty data directory)", "second run (same command, same data directory)"]) {
  // A new instance per run, as a second `chunkeval bench` invocation would be.
  const started = performance.now();
  const app = await createChunkeval(loaded.config);
  const e = await app.bench({
    document: { filename: "harbor-light-handbook.docx", bytes },
    questions,
    questionsSource: "harbor-light-handbook.json",
    strategies: "all",
  });
  await app.close();
  const wall = (performance.now() - started) / 1000;
  const s = e.details.stageSeconds;
  console.log(`\n${label}: ${wall.toFixed(1)} s wall`);
  console.log(
    `  processing ${s.processing.toFixed(1)} s, retrieval ${s.retrieval.toFixed(1)} s, generation ${s.generation.toFixed(1)} s, judging ${s.judging.toFixed(1)} s, other ${(wall - s.processing - s.retrieval - s.generation - s.judging).toFixed(1)} s`,
  );
  console.log(`  embeddings computed ${e.details.embeddings.computed}, served from cache ${e.details.embeddings.cached}`);
  console.log(
    `  best ${e.bestStrategy}; composite ${Object.entries(e.aggregateMetrics)
      .map(([k, m]) => `${k} ${m.compositeScore?.toFixed(2)}`)
      .join(", ")}`,
  );
  // Every aggregate metric but the timings: equal digests mean the two builds scored alike.
  const scores = JSON.stringify(e.aggregateMetrics, (key, value) => (/latency|seconds/i.test(key) ? undefined : value));
  console.log(`  aggregate metrics (timings left out) sha256 ${createHash("sha256").update(scores).digest("hex").slice(0, 16)}`);
}
clearInterval(sampler);
console.log(`\npeak RSS: ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);
rmSync(dataDir, { recursive: true, force: true });
