/**
 * Collection scale figures (`npm run bench:scale -- --collection`): builds N generated documents
 * (1-50 pages) in every format chunkeval reads, in turn, and measures
 *
 * 1. parsing alone, per format: chunkeval's parser (format detection, the library, our block
 *    walk and offsets) against the parsing library called directly on the same files, in the
 *    same run, rounds alternating which goes first; the ratio is our overhead;
 * 2. end to end, per format: upload (parsing in the bounded worker, storing) and processing
 *    with one strategy variant (hash embedder), documents/s and MB/s;
 * 3. a dry-run benchmark of the whole collection, and question search over every document's
 *    chunks: p50/p99 of the search alone, and recall@10 of the ANN index against exact search;
 * 4. peak RSS and the data directory's size.
 *
 *   npm run bench:scale -- --collection [--documents N] [--strategy VARIANT] [--questions Q] [--rounds R] [--parse-only] [--data-dir DIR]
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import mammoth from "mammoth";
import { marked } from "marked";
import { Parser as HtmlParser } from "htmlparser2";
import { composeChunkeval } from "../src/chunkeval.js";
import { loadConfig } from "../src/config/load.js";
import { DEFAULTS } from "../src/config/defaults.js";
import { retrieve } from "../src/retrieval/retrieve.js";
import { indexKeyOf } from "../src/domain/variant-key.js";
import { generateDocument, SCALE_FORMATS, seeded, type ScaleFormat } from "./scale-corpus.js";

const { values } = parseArgs({
  options: {
    collection: { type: "boolean" },
    documents: { type: "string", default: "1000" },
    strategy: { type: "string", default: "recursive@chunk_size=64:chunk_overlap=0" },
    questions: { type: "string", default: "200" },
    rounds: { type: "string", default: "5" },
    "parse-only": { type: "boolean" },
    "data-dir": { type: "string" },
  },
});
const documents = Math.max(SCALE_FORMATS.length, Number(values.documents));
const questionCount = Math.max(10, Number(values.questions));
const rounds = Math.max(1, Number(values.rounds));
const variant = values.strategy!;
const dataDir = values["data-dir"] ?? mkdtempSync(join(tmpdir(), "chunkeval-scale-collection-"));
const loaded = loadConfig({
  flags: { data_dir: dataDir, embedder: "hash", vector_version_retention_seconds: 0 },
  env: { ...process.env, CHUNKEVAL_EMBEDDER_WORKERS: "2" },
});
if (loaded.errors.length) throw new Error(loaded.errors.join("; "));

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
const median = (xs: number[]) => pct(xs, 50);
const MB = 1024 * 1024;
const folderBytes = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => sum + (e.isDirectory() ? folderBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);

// 1. Generate.
let t = performance.now();
const files: Array<{ filename: string; bytes: Buffer; format: ScaleFormat; pages: number; questions: string[] }> = [];
for (let i = 0; i < documents; i++) {
  const format = SCALE_FORMATS[i % SCALE_FORMATS.length]!;
  const g = await generateDocument(i, 13, format);
  files.push({ ...g, format });
}
console.log(
  `bench:scale --collection: ${documents} documents (${SCALE_FORMATS.join(", ")} in turn), ${files.reduce((n, f) => n + f.pages, 0)} pages, ` +
    `${(files.reduce((n, f) => n + f.bytes.length, 0) / MB).toFixed(1)} MB of files, generated in ${((performance.now() - t) / 1000).toFixed(1)} s; hash embedder; data ${dataDir}`,
);

// 2. Parsing alone: ours against the library on the same files, rounds alternating the order.
// Ours is the built parser (dist/, what `chunkeval` runs), not the TypeScript source as tsx
// serves it: its transform wraps functions in naming helpers that cost time in hot callbacks.
const builtParser = new URL("../dist/parsers/parser.js", import.meta.url);
if (!existsSync(builtParser)) throw new Error("bench:scale -- --collection measures the built parser: run npm run build first");
const { parseDocument } = (await import(builtParser.href)) as typeof import("../src/parsers/parser.js");
const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
const library: Record<ScaleFormat, (bytes: Buffer) => Promise<unknown>> = {
  docx: (bytes) => mammoth.convertToHtml({ buffer: bytes }),
  pdf: async (bytes) => {
    const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false })
      .promise;
    try {
      for (let p = 1; p <= doc.numPages; p++) await (await doc.getPage(p)).getTextContent();
    } finally {
      await doc.destroy();
    }
  },
  md: async (bytes) => marked.lexer(new TextDecoder("utf-8", { fatal: true }).decode(bytes)),
  html: async (bytes) => {
    const parser = new HtmlParser({ ontext() {} }, { decodeEntities: true });
    parser.write(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    parser.end();
  },
  // Plain text has no parsing library: the baseline is only the UTF-8 decoding, so its ratio is what splitting into blocks costs.
  txt: async (bytes) => new TextDecoder("utf-8", { fatal: true }).decode(bytes),
};
console.log(
  `\nparsing alone, in process, median of ${rounds} rounds after a warm-up round of each (documents/s, MB/s of files; ratio: median of the rounds' ratios):`,
);
for (const format of SCALE_FORMATS) {
  const subset = files.filter((f) => f.format === format);
  const bytes = subset.reduce((n, f) => n + f.bytes.length, 0);
  const ours: number[] = [];
  const theirs: number[] = [];
  const timeOurs = async (record = true) => {
    const s = performance.now();
    for (const f of subset) await parseDocument(f.bytes, f.filename);
    if (record) ours.push((performance.now() - s) / 1000);
  };
  const timeLibrary = async (record = true) => {
    const s = performance.now();
    for (const f of subset) await library[format](f.bytes);
    if (record) theirs.push((performance.now() - s) / 1000);
  };
  // One round of each first, not counted: our parser calls the same library, so whichever ran
  // first would otherwise pay for compiling the library's code for both.
  await timeOurs(false);
  await timeLibrary(false);
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) (await timeOurs(), await timeLibrary());
    else (await timeLibrary(), await timeOurs());
  }
  const [o, l] = [median(ours), median(theirs)];
  // The ratio is the median of each round's ratio: the two timings of a round ran back to back, so
  // what the shared machine does meanwhile weighs on both; the range shows how much rounds vary.
  const ratios = ours.map((s, r) => s / theirs[r]!);
  console.log(
    `  ${format.padEnd(4)} ${String(subset.length).padStart(4)} files  chunkeval ${(subset.length / o).toFixed(0).padStart(5)} docs/s ${(bytes / MB / o).toFixed(2).padStart(6)} MB/s` +
      `  library ${(subset.length / l).toFixed(0).padStart(5)} docs/s ${(bytes / MB / l).toFixed(2).padStart(6)} MB/s` +
      `  ratio ${median(ratios).toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x)`,
  );
}

if (values["parse-only"]) {
  if (!values["data-dir"]) rmSync(dataDir, { recursive: true, force: true });
  process.exit();
}

// 3. End to end: upload (the bounded parsing worker, storing) and processing, per format.
const { app, internals } = await composeChunkeval(loaded.config);
const collection = await app.createCollection("scale");
const perFormat = new Map<ScaleFormat, { upload: number; process: number; bytes: number; text: number; chunks: number; docs: number; each: number[] }>();
const ids: string[] = [];
t = performance.now();
for (const [i, f] of files.entries()) {
  const row = perFormat.get(f.format) ?? { upload: 0, process: 0, bytes: 0, text: 0, chunks: 0, docs: 0, each: [] as number[] };
  const began = performance.now();
  let s = performance.now();
  const record = await app.upload({ filename: f.filename, bytes: f.bytes });
  row.upload += (performance.now() - s) / 1000;
  s = performance.now();
  const result = await app.process(record.id, [variant]);
  row.process += (performance.now() - s) / 1000;
  if (result.strategiesFailed.length) throw new Error(`${f.filename}: ${JSON.stringify(result.strategiesFailed)}`);
  row.chunks += result.strategiesCompleted[0]!.chunksProduced;
  row.bytes += f.bytes.length;
  row.text += Buffer.byteLength((await app.getDocument(record.id)).text);
  row.docs++;
  row.each.push(performance.now() - began);
  perFormat.set(f.format, row);
  ids.push(record.id);
  if ((i + 1) % 100 === 0) console.error(`  uploaded and processed ${i + 1}/${documents} (${((performance.now() - t) / 1000).toFixed(0)} s)`);
}
await app.addToCollection(
  collection.id,
  ids.map((id) => ({ id })),
);
const ingestSeconds = (performance.now() - t) / 1000;
const chunks = [...perFormat.values()].reduce((n, r) => n + r.chunks, 0);
console.log(
  `\nend to end, ${variant}, hash embedder (upload = parse in the worker + store; process = chunk, embed, index; ` +
    "a write that meets the store's background upkeep waits for its compaction, which lands on whichever document writes then: see max):",
);
for (const [format, r] of perFormat) {
  const total = r.upload + r.process;
  console.log(
    `  ${format.padEnd(4)} ${String(r.docs).padStart(4)} docs  upload ${(r.docs / r.upload).toFixed(1).padStart(6)} docs/s ${(r.bytes / MB / r.upload).toFixed(2).padStart(5)} MB/s` +
      `  end to end ${(r.docs / total).toFixed(1).padStart(5)} docs/s ${(r.bytes / MB / total).toFixed(2).padStart(5)} MB/s of files (${(r.text / MB / total).toFixed(2)} MB/s of text), ${r.chunks} chunks;` +
      ` per document p50 ${median(r.each).toFixed(0)} ms, max ${Math.max(...r.each).toFixed(0)} ms`,
  );
}
console.log(`  all  ${documents} docs, ${chunks} chunk vectors in ${ingestSeconds.toFixed(1)} s`);

// 4. Upkeep (the ANN index once the table is large), then a dry-run benchmark of the collection.
t = performance.now();
await (await internals.context.vectors()).maintain();
console.log(`upkeep (indexes, compaction): ${((performance.now() - t) / 1000).toFixed(1)} s`);
const rnd = seeded(11);
const questions = Array.from({ length: questionCount }, () => {
  const f = files[Math.floor(rnd() * files.length)]!;
  return f.questions[Math.floor(rnd() * f.questions.length)] ?? `What does ${f.filename} say?`;
});
t = performance.now();
const experiment = await app.bench({
  collection: { name: "scale" },
  questions: questions.slice(0, 50).map((question) => ({ question, expectedAnswer: null, references: [] })),
  questionsSource: "generated",
  strategies: [variant],
  dryRun: true,
});
console.log(`dry-run benchmark of the collection, 50 questions: ${((performance.now() - t) / 1000).toFixed(1)} s (experiment ${experiment.experimentId})`);

// 5. Question search over the whole collection: the search alone, and the ANN index's recall.
const ctx = internals.context;
const embedder = await ctx.embedder();
const vectors = await ctx.vectors();
const variantKey = indexKeyOf(variant);
const states = await Promise.all(ids.map(async (id) => (await ctx.chunks.state(id, variantKey))!));
const searchMs: number[] = [];
for (const q of questions) searchMs.push((await retrieve({ vectors, chunks: ctx.chunks, embedder }, states, q, 5, undefined, "dense")).searchSeconds * 1000);
// Exact search of the same scopes (a scope of unknown size is never searched approximately).
const exactScopes = states.map((s) => ({ ...s, chunkCount: 0 }));
const annUsed = states.reduce((n, s) => n + s.chunkCount, 0) >= DEFAULTS.evaluationVectorIndexMinRows;
let found = 0;
const exactMs: number[] = [];
for (const q of questions.slice(0, 50)) {
  const [v] = await embedder.embed([q]);
  const s = performance.now();
  const exact = await vectors.search(states[0]!.vectorSpace, v!, exactScopes, 10);
  exactMs.push(performance.now() - s);
  const ann = await vectors.search(states[0]!.vectorSpace, v!, states, 10);
  // Generated text repeats itself, so many chunks tie: an ANN result counts when it is as near
  // as the exact search's 10th, whichever of the tied chunks it is.
  const tenth = exact.at(-1)?.score ?? 1;
  found += ann.filter((h) => h.score >= tenth - 1e-6).length / Math.max(1, exact.length);
}
console.log(
  `question search over the whole collection (${chunks} vectors, ${questions.length} questions, top 5, search only): p50 ${pct(searchMs, 50).toFixed(1)} ms, p99 ${pct(searchMs, 99).toFixed(1)} ms; ` +
    `exact scan p50 ${pct(exactMs, 50).toFixed(1)} ms; ` +
    (annUsed
      ? `recall@10 of the ANN search against exact ${(found / 50).toFixed(3)} (ties counted by distance)`
      : "below the ANN threshold: every search exact, recall not applicable"),
);
await app.close();
clearInterval(sampler);
console.log(
  `memory: peak RSS ${(peakRss / MB).toFixed(0)} MiB; disk: data directory ${(folderBytes(dataDir) / MB).toFixed(1)} MiB (${(folderBytes(join(dataDir, "lancedb")) / MB).toFixed(1)} MiB LanceDB)`,
);
if (!values["data-dir"]) rmSync(dataDir, { recursive: true, force: true });
