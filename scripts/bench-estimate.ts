/**
 * The sweep estimate against the run it estimates, on the bundled handbook and its 28 questions,
 * on the default stack. Each case opens chunkeval afresh over one data directory (as a `bench`
 * command would), estimates the sweep, then runs it and times the run:
 *   1. a 2 × 2 sweep of recursive in a fresh data directory: every index new, nothing cached;
 *   2. the same sweep again: no index to build, every text cached;
 *   3. a 2 × 4 sweep of other sizes and overlaps: eight new indexes, the questions and
 *      sentences cached, a run rate measured by case 2.
 * Prints the time the estimate took, estimate, actual and actual / estimate, and exits 1 unless
 * every ratio is within 2× both ways.
 *
 *   npm run bench:estimate [-- --embedder hash]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createChunkeval } from "../src/chunkeval.js";
import { loadConfig } from "../src/config/load.js";
import { loadQuestionsFile } from "../src/evaluators/questions.js";

/** Within this factor both ways the estimate holds (issue 26). */
const FACTOR = 2;

const { values } = parseArgs({ options: { embedder: { type: "string" } } });
const bytes = readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url));
const questions = await loadQuestionsFile(new URL("../questions/harbor-light-handbook.json", import.meta.url).pathname);
const base = { document: { filename: "harbor-light-handbook.docx", bytes }, questions, questionsSource: "harbor-light-handbook.json" };
const dir = mkdtempSync(join(tmpdir(), "chunkeval-bench-estimate-"));

const cases = [
  { label: "fresh data directory", sweep: "recursive:chunk_size=256,512:chunk_overlap=0,32" },
  { label: "same sweep again", sweep: "recursive:chunk_size=256,512:chunk_overlap=0,32" },
  { label: "new sizes, warm cache", sweep: "recursive:chunk_size=128,384:chunk_overlap=0,16,48,64" },
];

console.log(`${questions.length} questions; embedder ${values.embedder ?? "default"}`);
console.log("case                    indexes to build  estimating s  estimate s  actual s  actual/estimate  within 2x");
let failed = false;
const notes: string[] = [];
try {
  for (const { label, sweep } of cases) {
    const loaded = loadConfig({ flags: { data_dir: dir, embedder: values.embedder } });
    if (loaded.errors.length) throw new Error(loaded.errors.join("; "));
    const app = await createChunkeval(loaded.config);
    try {
      const estimating = performance.now();
      const estimate = await app.estimateBench({ ...base, sweep: [sweep] });
      const started = performance.now();
      await app.bench({ ...base, sweep: [sweep] });
      const actual = (performance.now() - started) / 1000;
      const ratio = actual / estimate.seconds;
      const holds = ratio >= 1 / FACTOR && ratio <= FACTOR;
      failed ||= !holds;
      console.log(
        `${label.padEnd(24)}${`${estimate.indexesToBuild} of ${estimate.indexes}`.padStart(16)}${((started - estimating) / 1000).toFixed(2).padStart(14)}${estimate.seconds.toFixed(2).padStart(12)}${actual.toFixed(2).padStart(10)}${ratio.toFixed(2).padStart(17)}${(holds ? "yes" : "NO").padStart(11)}`,
      );
      notes.push(`${label}: ${estimate.includes}`);
    } finally {
      await app.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\nwhat each estimate includes:\n${notes.map((n) => `  ${n}`).join("\n")}`);
if (failed) {
  console.log(`\nan estimate is off by more than ${FACTOR}x`);
  process.exitCode = 1;
}
