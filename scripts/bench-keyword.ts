/**
 * Keyword search at scale: BM25 over N chunks (default 100,000) cut from the scale corpus's
 * generated documents (about 60 words each), searched with the corpus's own questions. Prints the
 * index build time and the search's p50 / p99 per question (top 5) for the inverted index
 * (src/retrieval/bm25.ts), beside a peer measured in the same run: scoring every chunk per
 * question, as keyword search did before, over the same term counts. The ratio is what to read,
 * the machine being shared; the budget is a p50 under 20 ms at 100,000 chunks.
 *
 *   npm run bench:keyword [-- --chunks 100000] [-- --questions 200]
 */
import { parseArgs } from "node:util";
import { keywordSearch } from "../src/retrieval/bm25.js";
import { contentTerms } from "../src/text/terms.js";
import { generateDocument } from "./scale-corpus.js";

const { values } = parseArgs({ options: { chunks: { type: "string", default: "100000" }, questions: { type: "string", default: "200" } } });
const wanted = Number(values.chunks);
const chunks: Array<{ id: string; text: string; context: string | null }> = [];
const questions: string[] = [];
for (let d = 0; chunks.length < wanted; d++) {
  const document = await generateDocument(d, 13, "txt");
  const words = document.bytes.toString("utf8").split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length && chunks.length < wanted; i += 60)
    chunks.push({ id: `c${chunks.length}`, text: words.slice(i, i + 60).join(" "), context: null });
  questions.push(...document.questions);
}
const asked = questions.slice(0, Number(values.questions));
const pct = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))]!;

const built = performance.now();
await keywordSearch("bench", async () => chunks, "warm up", 5);
const buildMs = performance.now() - built;
const indexed: number[] = [];
for (const q of asked) {
  const t = performance.now();
  await keywordSearch("bench", async () => chunks, q, 5);
  indexed.push(performance.now() - t);
}

// The peer: every chunk scored for every question (the same BM25, over per-chunk term counts).
const docs = chunks.map((c) => {
  const tf = new Map<string, number>();
  const terms = contentTerms(c.text);
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, length: terms.length };
});
const df = new Map<string, number>();
for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length;
const scanned: number[] = [];
for (const q of asked) {
  const t = performance.now();
  const terms = [...new Set(contentTerms(q))];
  const scores: Array<[number, number]> = [];
  docs.forEach((d, i) => {
    let score = 0;
    for (const term of terms) {
      const f = d.tf.get(term);
      if (!f) continue;
      const idf = Math.log(1 + (docs.length - df.get(term)! + 0.5) / (df.get(term)! + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg));
    }
    if (score > 0) scores.push([i, score]);
  });
  scores.sort((a, b) => b[1] - a[1]);
  scanned.push(performance.now() - t);
}
console.log(`${chunks.length} chunks, ${asked.length} questions, top 5; index built in ${(buildMs / 1000).toFixed(1)} s`);
console.log(`inverted index: p50 ${pct(indexed, 50).toFixed(2)} ms, p99 ${pct(indexed, 99).toFixed(2)} ms`);
console.log(`every chunk scored (the peer): p50 ${pct(scanned, 50).toFixed(2)} ms, p99 ${pct(scanned, 99).toFixed(2)} ms`);
console.log(`ratio of p50s (peer / index): ${(pct(scanned, 50) / pct(indexed, 50)).toFixed(1)}`);
