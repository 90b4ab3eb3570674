/**
 * Warms the test run's embedding cache (the folder named as its argument) with the bundled model's
 * vectors of the texts several model-backed test files embed: the handbook with every built-in
 * strategy, and the standard corpus (examples/standard) with `recursive`. scripts/run-tests.mjs
 * runs it as the first job of the lanes and holds back the files that embed with the model
 * (test/lanes.mjs, MODEL) until it is done, so those texts are embedded once per run. The cache
 * starts with the vectors kept in the repository (./vector-fixture.ts): warming then computes
 * only what they lack, and says how many.
 *
 *   node --import tsx test/helpers/warm-cache.ts CACHE_DIR
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { composeChunkeval } from "../../src/chunkeval.js";
import { loadConfig } from "../../src/config/load.js";
import { cachedVectorCount } from "./vector-fixture.js";

const examples = (path: string) => fileURLToPath(new URL(`../../examples/${path}`, import.meta.url));

/** Each document to warm, with the strategies its chunks are embedded for. */
function warmSet(): Array<{ path: string; strategies: string | string[] }> {
  const standard = readdirSync(examples("standard")).map((file) => ({ path: examples(`standard/${file}`), strategies: ["recursive"] }));
  return [{ path: examples("harbor-light-handbook.docx"), strategies: "all" }, ...standard];
}

const cacheDir = process.argv[2];
if (!cacheDir) {
  console.error("usage: node --import tsx test/helpers/warm-cache.ts CACHE_DIR");
  process.exit(2);
}
const vectorsIn = () => cachedVectorCount(cacheDir, "use");
const before = vectorsIn();
const scratch = mkdtempSync(join(tmpdir(), "chunkeval-warm-"));
const started = Date.now();
const { config } = loadConfig({
  cwd: scratch,
  // One thread, like every test process: the lanes' other files run beside it.
  env: { CHUNKEVAL_EMBEDDER_WORKERS: "0" },
  flags: { data_dir: join(scratch, "data"), cache_dir: cacheDir, embedder: "use" },
});
const { app } = await composeChunkeval(config);
let chunks = 0;
try {
  for (const { path, strategies } of warmSet()) {
    const uploaded = await app.upload({ filename: basename(path), bytes: readFileSync(path) });
    const processed = await app.process(uploaded.id, strategies);
    if (processed.strategiesFailed.length > 0) throw new Error(`warming ${basename(path)}: ${JSON.stringify(processed.strategiesFailed)}`);
    chunks += processed.strategiesCompleted.reduce((total, run) => total + run.chunksProduced, 0);
  }
} finally {
  await app.close();
  rmSync(scratch, { recursive: true, force: true });
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`embedding cache warmed: ${chunks} chunks in ${seconds} s, ${vectorsIn() - before} texts embedded (${before} vectors were there)`);
