import { indexedText } from "../text/indexed-text.js";
import { contentTerms } from "../text/terms.js";
import type { VectorHit } from "../stores/vectors/vector-store.js";

/** Okapi BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/**
 * An inverted index: for each term, the chunks that hold it (their index in `ids`) and how often,
 * so a question costs the postings of its own terms, not a pass over every chunk.
 */
interface Bm25Index {
  ids: string[];
  /** Each chunk's length in terms. */
  lengths: Float64Array;
  postings: Map<string, { chunks: Int32Array; counts: Int32Array }>;
  avgLength: number;
}

function buildIndex(chunks: Array<{ id: string; text: string; context: string | null }>): Bm25Index {
  const lists = new Map<string, { chunks: number[]; counts: number[] }>();
  const lengths = new Float64Array(chunks.length);
  chunks.forEach((c, i) => {
    const terms = contentTerms(indexedText(c));
    lengths[i] = terms.length;
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, f] of tf) {
      let list = lists.get(t);
      if (!list) lists.set(t, (list = { chunks: [], counts: [] }));
      list.chunks.push(i);
      list.counts.push(f);
    }
  });
  const postings = new Map([...lists].map(([t, l]) => [t, { chunks: Int32Array.from(l.chunks), counts: Int32Array.from(l.counts) }]));
  const total = lengths.reduce((n, l) => n + l, 0);
  return { ids: chunks.map((c) => c.id), lengths, postings, avgLength: total / Math.max(1, chunks.length) };
}

// Indexes of recently searched generations: a benchmark asks every question of one generation.
const cache = new Map<string, Bm25Index>();
const CACHED_GENERATIONS = 32;

/**
 * BM25 over the chunks of one processed strategy (one generation), with the project's stemmed
 * content terms, best first (ties by id). Computed in process rather than by the vector store's
 * full-text index: its statistics would span every document and generation in the table and
 * change as the index is updated in the background, so the same question on the same chunks
 * could rank differently from one run to the next, or after another document was processed.
 */
export async function keywordSearch(
  generation: string,
  chunks: () => Promise<Array<{ id: string; text: string; context: string | null }>>,
  question: string,
  limit: number,
): Promise<VectorHit[]> {
  let index = cache.get(generation);
  if (!index) {
    index = buildIndex(await chunks());
    cache.set(generation, index);
    if (cache.size > CACHED_GENERATIONS) cache.delete(cache.keys().next().value!);
  }
  const n = index.ids.length;
  const scores = new Float64Array(n);
  const touched: number[] = [];
  const avgLength = Math.max(1, index.avgLength);
  for (const t of new Set(contentTerms(question))) {
    const list = index.postings.get(t);
    if (!list) continue;
    const df = list.chunks.length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let j = 0; j < df; j++) {
      const i = list.chunks[j]!;
      const f = list.counts[j]!;
      if (scores[i] === 0) touched.push(i);
      scores[i]! += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * index.lengths[i]!) / avgLength));
    }
  }
  // Only chunks scoring at least the limit-th best score can be returned: the rest are never sorted
  // (a common term touches most chunks of a large collection).
  let floor = Number.MIN_VALUE;
  if (touched.length > limit) {
    const best = Float64Array.from(touched, (i) => scores[i]!).sort();
    floor = Math.max(floor, best[best.length - limit]!);
  }
  const hits: VectorHit[] = [];
  for (const i of touched) if (scores[i]! >= floor) hits.push({ chunkId: index.ids[i]!, score: scores[i]! });
  return hits.sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId)).slice(0, limit);
}
