/**
 * The cost of a sweep against a single strategy on the bundled handbook and its 28 questions,
 * on the default stack: a plain `recursive` bench, then a 3 × 2 sweep of recursive
 * (chunk_size 128, 256, 512 × chunk_overlap 0, 32) in a fresh data directory, first run and
 * re-run. Prints wall time, processing wall time against the sum of the variants' own
 * processing times (what side-by-side processing saves), and texts embedded vs served from
 * the cache.
 *
 *   npm run bench:sweep [-- --embedder hash]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createChunkeval } from "../src/chunkeval.js";
import { loadConfig } from "../src/config/load.js";
import { loadQuestionsFile } from "../src/evaluators/questions.js";
import type { BenchInput } from "../src/services/benchmarking/bench-input.js";

const { values } = parseArgs({ options: { embedder: { type: "string" } } });
const bytes = readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url));
const questions = await loadQuestionsFile(new URL("../questions/harbor-light-handbook.json", import.meta.url).pathname);
const base = { document: { filename: "harbor-light-handbook.docx", bytes }, questions, questionsSource: "harbor-light-handbook.json" };

async function series(label: string, selection: Partial<BenchInput>, runs: string[]): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-bench-sweep-"));
  const loaded = loadConfig({ flags: { data_dir: dir, embedder: values.embedder } });
  if (loaded.errors.length) throw new Error(loaded.errors.join("; "));
  const app = await createChunkeval(loaded.config);
  const out: number[] = [];
  try {
    for (const run of runs) {
      const started = performance.now();
      const e = await app.bench({ ...base, ...selection });
      const seconds = (performance.now() - started) / 1000;
      const own = e.details.indexing.reduce((n, x) => n + x.seconds, 0);
      console.log(
        `${`${label}, ${run}`.padEnd(24)} ${String(e.strategiesUsed.length).padStart(8)} ${seconds.toFixed(1).padStart(7)} ${e.details.stageSeconds.processing.toFixed(1).padStart(12)} ${own.toFixed(1).padStart(13)} ${String(e.details.embeddings.computed).padStart(9)} ${String(e.details.embeddings.cached).padStart(7)}`,
      );
      out.push(seconds);
    }
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

console.log(`${questions.length} questions; embedder ${values.embedder ?? "default"}`);
console.log("run                      variants  wall s  processing s  sum of own s  embedded  cached");
const [single] = await series("single recursive", { strategies: "recursive" }, ["first run"]);
const [first, again] = await series("3 × 2 sweep", { sweep: ["recursive:chunk_size=128,256,512:chunk_overlap=0,32"] }, ["first run", "re-run"]);
console.log(`\nsweep first run / single: ${(first! / single!).toFixed(2)} (6 variants); sweep re-run / single: ${(again! / single!).toFixed(2)}`);
