/**
 * Scale figures: builds N generated Word documents (1-50 pages), uploads and processes each
 * with all five strategies (hash embedder), ingests each into /v1, stores a few dry-run
 * experiments, lets the vector store's upkeep run, then serves the data directory and prints
 * ingest throughput, POST /queries and POST /v1/search latency at 1, 8 and 32 clients, list page
 * latency, the ANN index's recall@10 against exact search, RSS and the data directory's size.
 * A few extra documents are processed with the `use` embedder (recursive only) to show the
 * real model's share.
 *
 * The /v1 collection holds the corpus once per tenant (`--v1-tenants`, default 3), each in the
 * tenant's own table, and searches are the first tenant's.
 *
 * With `-- --collection`, scripts/bench-scale-collection.ts measures a collection of every format instead.
 *
 *   npm run bench:scale [-- --documents N] [-- --use-documents M] [-- --v1-tenants K] [-- --requests R] [-- --data-dir DIR]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { composeChunkeval } from "../src/chunkeval.js";
import { LancePointsStore } from "../src/stores/vectors/lancedb/points.js";
import { loadConfig } from "../src/config/load.js";
import { STRATEGY_NAMES } from "../src/strategies/registry.js";
import { measure, startServe } from "./load-helpers.js";
import { generateDocument, seeded } from "./scale-corpus.js";

// `-- --collection`: the collection figures (every format, parsing against its library) instead.
if (process.argv.includes("--collection")) {
  await import("./bench-scale-collection.js");
  process.exit();
}

const { values } = parseArgs({
  options: {
    documents: { type: "string", default: "10" },
    "use-documents": { type: "string" },
    requests: { type: "string", default: "200" },
    "v1-tenants": { type: "string", default: "3" },
    "data-dir": { type: "string" },
  },
});
const documents = Math.max(1, Number(values.documents));
const useDocuments = Math.max(0, Number(values["use-documents"] ?? Math.min(3, documents)));
const v1Tenants = Math.max(1, Number(values["v1-tenants"]));
const requests = Math.min(2000, Math.max(20, Number(values.requests)));
const dataDir = values["data-dir"] ?? mkdtempSync(join(tmpdir(), "chunkeval-scale-"));
// One process writes and nothing else reads while it does: old versions may go at once.
const flags = { data_dir: dataDir, embedder: "hash", vector_version_retention_seconds: 0 };
const env = { ...process.env, CHUNKEVAL_EMBEDDER_WORKERS: "2" };
const config = (embedder = "hash") => {
  const loaded = loadConfig({ flags: { ...flags, embedder }, env });
  if (loaded.errors.length) throw new Error(loaded.errors.join("; "));
  return loaded.config;
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
function folderBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (sum, e) => sum + (e.isDirectory() ? folderBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size),
    0,
  );
}
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);

const { app, internals } = await composeChunkeval(config());
const embedder = await internals.context.embedder();
console.log(
  `bench:scale: ${documents} documents (+${useDocuments} with the use embedder), ${STRATEGY_NAMES.length} strategies, hash embedder; data ${dataDir}`,
);

// 1. Generate and upload.
const docs: Array<{ id: string; filename: string; bytes: Buffer; pages: number; questions: string[]; textBytes: number }> = [];
let t = performance.now();
let uploadMs = 0;
for (let i = 0; i < documents; i++) {
  const g = await generateDocument(i);
  const started = performance.now();
  const record = await app.upload({ filename: g.filename, bytes: g.bytes });
  uploadMs += performance.now() - started;
  docs.push({
    id: record.id,
    filename: g.filename,
    bytes: g.bytes,
    pages: g.pages,
    questions: g.questions,
    textBytes: Buffer.byteLength((await app.getDocument(record.id)).text),
  });
}
const pages = docs.reduce((s, d) => s + d.pages, 0);
const textBytes = docs.reduce((s, d) => s + d.textBytes, 0);
console.log(
  `generated and uploaded in ${((performance.now() - t) / 1000).toFixed(1)} s (upload and parse ${(uploadMs / 1000).toFixed(1)} s): ${pages} pages, ${mib(textBytes)} of text, ${Math.min(...docs.map((d) => d.pages))}-${Math.max(...docs.map((d) => d.pages))} pages per document`,
);

// 2. Process every document with every strategy.
const chunksByStrategy: Record<string, number> = {};
const embedBefore = embedder.stats.embedSeconds;
t = performance.now();
for (const [i, d] of docs.entries()) {
  const result = await app.process(d.id, [...STRATEGY_NAMES]);
  if (result.strategiesFailed.length) throw new Error(`${d.filename}: ${JSON.stringify(result.strategiesFailed)}`);
  for (const s of result.strategiesCompleted) chunksByStrategy[s.strategy] = (chunksByStrategy[s.strategy] ?? 0) + s.chunksProduced;
  if ((i + 1) % 50 === 0) console.error(`  processed ${i + 1}/${documents} (${((performance.now() - t) / 1000).toFixed(0)} s)`);
}
const processSeconds = (performance.now() - t) / 1000;
const embedSeconds = embedder.stats.embedSeconds - embedBefore;
const chunks = Object.values(chunksByStrategy).reduce((a, b) => a + b, 0);

// 3. The same documents into /v1 (the default ingestion strategy), once per tenant (each tenant's
// points are a table of their own); searches are the first tenant's.
const tenants = [];
for (let i = 0; i < v1Tenants; i++) tenants.push(await app.tenants.createTenant(`bench${i}`));
const tenant = tenants[0]!;
const { ingestion, points: pointsPort } = await internals.v1();
// The index measurements below use the LanceDB adapter's own exact and ANN queries.
if (!(pointsPort instanceof LancePointsStore)) throw new Error("bench:scale measures the LanceDB points store");
const points = pointsPort;
t = performance.now();
let pointsIndexed = 0;
for (const tn of tenants) {
  await app.tenants.createDomain(tn.id, "manuals", "Manuals");
  for (const d of docs) pointsIndexed += (await ingestion.ingest(tn.id, "manuals", d.filename, d.bytes)).chunksIndexed;
}
const v1Seconds = (performance.now() - t) / 1000;
const key = (await app.tenants.createApiKey(tenant.name, ["domains:read", "points:read"])).secret;

// 4. Experiments for the list (dry runs: retrieval only).
const experiments = Math.min(documents, 30);
for (const d of docs.slice(0, experiments)) {
  await app.bench({
    document: { id: d.id },
    questions: d.questions.slice(0, 3).map((question) => ({ question, expectedAnswer: null, references: [] })),
    questionsSource: "generated",
    strategies: ["recursive"],
    dryRun: true,
  });
}

// 5. Upkeep: indexes, compaction, version cleanup (it also runs by itself after writes).
t = performance.now();
await (await internals.context.vectors()).maintain();
await points.maintain();
const upkeepSeconds = (performance.now() - t) / 1000;
const v1Layout = await points.layout(tenant.id);
const annBuilt = v1Layout.vectorIndexSegments > 0;

// 6. Recall@10 of the /v1 dense search (ANN index) against exact search on the same questions.
const rnd = seeded(7);
const pickQuestion = () => {
  const d = docs[Math.floor(rnd() * docs.length)]!;
  return { doc: d, question: d.questions[Math.floor(rnd() * d.questions.length)] ?? `What does the ${d.filename} say?` };
};
const recallQuestions = Array.from({ length: 50 }, () => pickQuestion().question);
let overlap = 0;
let exactMs: number[] = [];
let annMs: number[] = [];
for (const q of recallQuestions) {
  const [vector] = await embedder.embed([q]);
  let s = performance.now();
  const exact = (await points.nearest(tenant.id, vector!, undefined, 10, { exact: true })).map((r) => r.point_id);
  exactMs.push(performance.now() - s);
  s = performance.now();
  const ann = new Set((await points.nearest(tenant.id, vector!, undefined, 10)).map((r) => r.point_id));
  annMs.push(performance.now() - s);
  overlap += exact.filter((id) => ann.has(id)).length / Math.max(1, exact.length);
}
const recall = overlap / recallQuestions.length;
// Other query parameters of the same index on the same questions, to show what the chosen ones buy.
const grid: string[] = [];
if (annBuilt) {
  const embedded = await embedder.embed(recallQuestions);
  const exactIds = await Promise.all(embedded.map(async (v) => (await points.nearest(tenant.id, v, undefined, 10, { exact: true })).map((r) => r.point_id)));
  for (const tuning of [
    { nprobes: 24, refineFactor: 1, ef: 128 },
    { nprobes: 24, refineFactor: 4, ef: 128 },
    { nprobes: 24, refineFactor: 4, ef: 200 },
    { nprobes: 24, refineFactor: 4, ef: 300 },
    { nprobes: 24, refineFactor: 1, ef: 500 },
  ]) {
    let hit = 0;
    const ms: number[] = [];
    for (const [i, v] of embedded.entries()) {
      const s = performance.now();
      const got = new Set((await points.nearest(tenant.id, v, undefined, 10, { tuning })).map((r) => r.point_id));
      ms.push(performance.now() - s);
      hit += exactIds[i]!.filter((id) => got.has(id)).length / Math.max(1, exactIds[i]!.length);
    }
    grid.push(
      `  nprobes ${String(tuning.nprobes).padStart(2)} refine ${tuning.refineFactor} ef ${String(tuning.ef).padStart(3)}: recall@10 ${(hit / embedded.length).toFixed(3)}, p50 ${pct(ms, 50).toFixed(1)} ms`,
    );
  }
}
await app.close();

// 7. The real embedder on a few extra documents (recursive only, kept out of the query mix).
let useLine = "use embedder: skipped (--use-documents 0)";
if (useDocuments > 0) {
  const { app: withUse, internals: useInternals } = await composeChunkeval(config("use"));
  const useEmbedder = await useInternals.context.embedder();
  await useEmbedder.embed(["warm-up: load the model"]);
  const before = useEmbedder.stats.embedSeconds;
  let useChunks = 0;
  let useText = 0;
  t = performance.now();
  for (let i = 0; i < useDocuments; i++) {
    const g = await generateDocument(documents + i);
    const d = await withUse.upload({ filename: g.filename, bytes: g.bytes });
    useText += Buffer.byteLength((await withUse.getDocument(d.id)).text);
    useChunks += (await withUse.process(d.id, ["recursive"])).strategiesCompleted[0]?.chunksProduced ?? 0;
  }
  const useSeconds = (performance.now() - t) / 1000;
  const useEmbed = useEmbedder.stats.embedSeconds - before;
  useLine = `use embedder, ${useDocuments} more documents, recursive: ${useChunks} chunks in ${useSeconds.toFixed(1)} s = ${(useChunks / useSeconds).toFixed(1)} chunks/s, ${(useText / 1048576 / useSeconds).toFixed(3)} MB/s of text; embedding ${useEmbed.toFixed(1)} s (${((100 * useEmbed) / useSeconds).toFixed(0)}% of the time)`;
  await withUse.close();
}
clearInterval(sampler);
const diskBytes = folderBytes(dataDir);

// 8. Serve the data directory and measure the HTTP surfaces.
const { url, stop, pid } = await startServe({
  ...env,
  CHUNKEVAL_DATA_DIR: dataDir,
  CHUNKEVAL_EMBEDDER: "hash",
  CHUNKEVAL_VECTOR_VERSION_RETENTION_SECONDS: "0",
});
const json = { "content-type": "application/json" };
const rows: string[] = [];
const line = (label: string, c: number | string, m: { p50: number; p99: number; rps: number; failures: number }, extra = "") =>
  rows.push(
    `${label.padEnd(34)} c=${String(c).padStart(2)}  p50 ${m.p50.toFixed(1).padStart(7)} ms  p99 ${m.p99.toFixed(1).padStart(7)} ms  ${m.rps.toFixed(0).padStart(5)} req/s  ${m.failures} failed${extra}`,
  );
for (const c of [1, 8, 32]) {
  const searchSeconds: number[] = [];
  const m = await measure(requests, c, async (i) => {
    const { doc, question } = pickQuestion();
    const r = await fetch(`${url}/queries`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ document_id: doc.id, strategy: STRATEGY_NAMES[i % STRATEGY_NAMES.length], question, top_k: 5 }),
    });
    const body = (await r.clone().json()) as { latency_breakdown?: { search_seconds: number } };
    if (body.latency_breakdown) searchSeconds.push(body.latency_breakdown.search_seconds * 1000);
    return r;
  });
  line("POST /queries", c, m, `; search only p50 ${pct(searchSeconds, 50).toFixed(1)} ms, p99 ${pct(searchSeconds, 99).toFixed(1)} ms`);
}
for (const c of [1, 8, 32]) {
  const m = await measure(requests, c, () =>
    fetch(`${url}/v1/search`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: pickQuestion().question, top_k: 5 }),
    }),
  );
  line("POST /v1/search", c, m);
}
const pageOf = (total: number) => Math.floor(rnd() * Math.max(1, Math.ceil(total / 50))) * 50;
line("GET /documents (random page of 50)", 1, await measure(requests, 1, () => fetch(`${url}/documents?offset=${pageOf(documents)}&limit=50`)));
line("GET /experiments (random page of 50)", 1, await measure(requests, 1, () => fetch(`${url}/experiments?offset=${pageOf(experiments)}&limit=50`)));
const status = readFileSync(`/proc/${pid}/status`, "utf8");
const serverRss = (field: string) => Number(/(\d+) kB/.exec(status.split("\n").find((l) => l.startsWith(field)) ?? "")?.[1] ?? NaN) * 1024;
await stop();

const vectors = chunks;
console.log(
  `\nvectors: ${vectors} evaluation chunk vectors (${Object.entries(chunksByStrategy)
    .map(([s, n]) => `${s} ${n}`)
    .join(", ")}), ${pointsIndexed} /v1 points (${v1Tenants} tenants; searches are the first's)`,
);
console.log(
  `ingest (process, ${STRATEGY_NAMES.length} strategies): ${chunks} chunks in ${processSeconds.toFixed(1)} s; embedding ${embedSeconds.toFixed(1)} s`,
);
console.log(
  `  embedding included: ${(chunks / processSeconds).toFixed(0)} chunks/s, ${(textBytes / 1048576 / processSeconds).toFixed(3)} MB/s of document text (all strategies)`,
);
console.log(
  `  embedding excluded: ${(chunks / (processSeconds - embedSeconds)).toFixed(0)} chunks/s, ${(textBytes / 1048576 / (processSeconds - embedSeconds)).toFixed(3)} MB/s`,
);
console.log(`ingest (/v1, ${pointsIndexed} points): ${v1Seconds.toFixed(1)} s, ${(pointsIndexed / v1Seconds).toFixed(0)} points/s`);
console.log(useLine);
console.log(
  `upkeep after ingest (indexes, compaction, cleanup): ${upkeepSeconds.toFixed(1)} s; /v1 ANN index of the searched tenant's table: ${annBuilt ? `built, ${v1Layout.vectorIndexSegments} segment(s)` : "not built (below the row threshold)"}; that table ${v1Layout.fragments} fragment(s)`,
);
console.log(
  annBuilt
    ? `/v1 dense top-10 in process: ANN p50 ${pct(annMs, 50).toFixed(1)} ms, exact p50 ${pct(exactMs, 50).toFixed(1)} ms; recall@10 of the index against exact search ${recall.toFixed(3)} (${recallQuestions.length} questions)`
    : // Without an index both searches are the exact scan, so a recall figure would compare it with itself.
      `/v1 dense top-10 in process: no ANN index, both searches exact (p50 ${pct(annMs, 50).toFixed(1)} and ${pct(exactMs, 50).toFixed(1)} ms); recall@10 not applicable`,
);
for (const g of grid) console.log(g);
console.log(`memory: ingest process peak RSS ${mib(peakRss)}; server RSS ${mib(serverRss("VmRSS"))} after the load, peak ${mib(serverRss("VmHWM"))}`);
console.log(`disk: data directory ${mib(diskBytes)} (${mib(folderBytes(join(dataDir, "lancedb")))} LanceDB)`);
console.log(`\nHTTP, ${requests} requests per row (questions from the documents, strategies in turn):`);
for (const r of rows) console.log(r);
if (!values["data-dir"]) rmSync(dataDir, { recursive: true, force: true });
