import { cosine } from "../domain/vectors.js";

/**
 * Context relevance by where the context's best sentence stands in the judge's own ranking of the
 * document's sentences for the question: the embedding judge's evidence for keyword retrieval
 * (embedding-judge.ts).
 *
 * The ranking fuses three orders of the document's sentences by reciprocal rank (each sentence
 * scores the sum of 1 / (SENTENCE_FUSION_K + its place) over them): the embedder's cosine to the
 * question; the share of the question's content words the sentence holds, each weighted by its
 * rarity among the document's sentences (log(1 + sentences / sentences holding it)); and the lexical
 * evidence (lexical-evidence.ts: the same share per part of the question, halved where a time or a
 * quantity is asked for and missing). The context scores 10 / (1 + the place of the best-ranked
 * sentence it holds whole): 10 when it holds the judge's favourite, 5 for its second, 0 when it
 * holds none of the document's sentences whole.
 *
 * Why this is independent of keyword retrieval: BM25 ranks whole chunks, across every document of
 * the collection, by term frequency; this ranking is of single sentences within the judged
 * document, half of it by the embedder, which BM25 never reads. Its 10 is the sentence the judge
 * prefers, which the retriever has no reason to have found. It shares the question's rare words
 * with BM25, and it is weaker than BM25 at finding the answer, so it sees fewer of BM25's misses
 * than a stronger judge would: at top_k 5, where BM25 misses seldom, it tracks span recall less
 * closely (docs/testing.md, "Context relevance against span recall").
 *
 * Why ranks rather than scores: the three are on scales of their own, and a rank says the same
 * thing in a document of 40 sentences as in one of 6,000.
 */

/** The reciprocal-rank fusion constant, chosen on the standard corpus's dev half and the example corpus (k 5, 10 and 30 tried). */
export const SENTENCE_FUSION_K = 30;

export interface RankedSentence {
  text: string;
  terms: ReadonlySet<string>;
  vector: Float32Array;
}

/**
 * Each value's place (0 = the highest): how many values are higher, so that ties share a place
 * (the many sentences holding none of the question's words do not get places in document order).
 */
function places(values: number[]): Int32Array {
  const order = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || a - b);
  const place = new Int32Array(values.length);
  order.forEach((index, k) => (place[index] = k > 0 && values[index] === values[order[k - 1]!] ? place[order[k - 1]!]! : k));
  return place;
}

/** The share of the question's terms a sentence holds, each weighted by log(1 + n / sentences holding it). */
function rareWordShares(questionTerms: ReadonlySet<string>, sentences: readonly RankedSentence[]): number[] {
  const holding = new Map<string, number>();
  for (const s of sentences) for (const t of questionTerms) if (s.terms.has(t)) holding.set(t, (holding.get(t) ?? 0) + 1);
  const weight = (t: string) => Math.log(1 + sentences.length / (holding.get(t) ?? 1));
  let total = 0;
  for (const t of questionTerms) total += weight(t);
  return sentences.map((s) => {
    if (total === 0) return 0;
    let found = 0;
    for (const t of questionTerms) if (s.terms.has(t)) found += weight(t);
    return found / total;
  });
}

/** The document's sentences, the judge's favourite for the question first. */
export function rankSentences(
  question: { terms: ReadonlySet<string>; vector: Float32Array },
  sentences: readonly RankedSentence[],
  lexicalEvidence: (sentence: RankedSentence) => number,
): RankedSentence[] {
  const orders = [
    places(sentences.map((s) => cosine(question.vector, s.vector))),
    places(rareWordShares(question.terms, sentences)),
    places(sentences.map(lexicalEvidence)),
  ];
  const fused = sentences.map((_, i) => orders.reduce((sum, place) => sum + 1 / (SENTENCE_FUSION_K + place[i]!), 0));
  // Ties in document order.
  return sentences
    .map((_, i) => i)
    .sort((a, b) => fused[b]! - fused[a]! || a - b)
    .map((i) => sentences[i]!);
}

/** 0-10: 10 / (1 + the place of the best-ranked sentence the contexts hold whole), 0 when they hold none. */
export function rankedContextRelevance(ranking: readonly RankedSentence[], contexts: string[]): number {
  const held = contexts.join("\n\n");
  const place = ranking.findIndex((s) => held.includes(s.text));
  return place < 0 ? 0 : 10 / (1 + place);
}
