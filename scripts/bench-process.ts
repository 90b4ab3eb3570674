/**
 * Processes the large bundled example with every built-in strategy on the default stack and prints,
 * per strategy: wall time, time waiting on the embedder, everything else, texts embedded vs served
 * from the cache; then the same for a second run over the same data (the cache at work), and the
 * peak resident memory of the process (worker threads included).
 *
 *   npm run bench:process [-- --embedder hash] [-- --data-dir DIR]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { composeChunkeval } from "../src/chunkeval.js";
import { loadConfig } from "../src/config/load.js";
import { STRATEGY_NAMES } from "../src/strategies/registry.js";

const { values } = parseArgs({ options: { embedder: { type: "string" }, "data-dir": { type: "string" } } });
const dataDir = values["data-dir"] ?? mkdtempSync(join(tmpdir(), "chunkeval-bench-"));
const loaded = loadConfig({ flags: { data_dir: dataDir, embedder: values.embedder } });
if (loaded.errors.length) throw new Error(loaded.errors.join("; "));

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

const { app, internals } = await composeChunkeval(loaded.config);
const bytes = readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url));
const doc = await app.upload({ filename: "harbor-light-handbook.docx", bytes });
const embedder = await internals.context.embedder();
console.log(`document ${doc.id}: ${doc.paragraphCount} paragraphs; embedder ${embedder.name}, ${loaded.config.embedderWorkers} worker(s)`);

async function run(label: string): Promise<void> {
  console.log(`\n${label}`);
  console.log("strategy               chunks   wall s  embed s  other s  embedded  cached");
  let wall = 0;
  let embed = 0;
  for (const name of STRATEGY_NAMES) {
    const before = { ...embedder.stats };
    const started = performance.now();
    const result = await app.process(doc.id, [name]);
    const seconds = (performance.now() - started) / 1000;
    if (result.strategiesFailed.length) throw new Error(result.strategiesFailed[0]!.error);
    const embedSeconds = embedder.stats.embedSeconds - before.embedSeconds;
    wall += seconds;
    embed += embedSeconds;
    console.log(
      `${name.padEnd(22)} ${String(result.strategiesCompleted[0]!.chunksProduced).padStart(6)} ${seconds.toFixed(2).padStart(8)} ${embedSeconds.toFixed(2).padStart(8)} ${(seconds - embedSeconds).toFixed(2).padStart(8)} ${String(embedder.stats.computed - before.computed).padStart(9)} ${String(embedder.stats.cached - before.cached).padStart(7)}`,
    );
  }
  console.log(
    `total: wall ${wall.toFixed(2)} s, embedder ${embed.toFixed(2)} s, everything else ${(wall - embed).toFixed(2)} s (${((100 * (wall - embed)) / wall).toFixed(1)}% of wall time)`,
  );
}

await run("first run (cold cache; includes model load in the first strategy)");
await run("second run (same document and options: embeddings come from the SQLite cache)");
clearInterval(sampler);
console.log(`\npeak RSS: ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);
await app.close();
if (!values["data-dir"]) rmSync(dataDir, { recursive: true, force: true });
