import { indexedText } from "../text/indexed-text.js";
import { contentTerms } from "../text/terms.js";
import type { VectorHit } from "../stores/vectors/vector-store.js";

/** Okapi BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

interface Bm25Index {
  docs: Array<{ id: string; tf: Map<string, number>; length: number }>;
  df: Map<string, number>;
  avgLength: number;
}

function buildIndex(chunks: Array<{ id: string; text: string; context: string | null }>): Bm25Index {
  const df = new Map<string, number>();
  const docs = chunks.map((c) => {
    const terms = contentTerms(indexedText(c));
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    return { id: c.id, tf, length: terms.length };
  });
  return { docs, df, avgLength: docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length) };
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
  const n = index.docs.length;
  const terms = [...new Set(contentTerms(question))];
  const hits: VectorHit[] = [];
  for (const doc of index.docs) {
    let score = 0;
    for (const t of terms) {
      const f = doc.tf.get(t);
      if (!f) continue;
      const df = index.df.get(t)!;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * doc.length) / Math.max(1, index.avgLength)));
    }
    if (score > 0) hits.push({ chunkId: doc.id, score });
  }
  return hits.sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId)).slice(0, limit);
}
