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
 * holds none of the document's sentences whole. Ties keep document order.
 *
 * How independent of keyword retrieval this is, and is not: two of its three orders are the
 * question's words weighted by rarity, BM25's own kind of signal, one sentence at a time; the third
 * is the embedder's, which BM25 never reads. What differs from BM25 is the unit (single sentences of
 * the judged document, not chunks of the whole collection), the weighting (presence, not term
 * frequency) and the embedder's vote: its 10 is the judge's favourite sentence, which the retriever
 * has no reason to have found. It is weaker than BM25 at finding the answer, so it sees few of
 * BM25's misses: at top_k 5, where BM25 misses seldom, it tracks span recall less closely, and a
 * sentence holding every rare word of the question without the answer outranks a paraphrased
 * answer (docs/testing.md, "Context relevance against span recall").
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

/**
 * 0-10: 10 / (1 + the place of the best-ranked sentence the context holds whole), 0 when it holds
 * none (or the document has no sentence). `contextSentences` are the context's own sentences, split
 * as the document's are: a sentence is held when it is one of them, not when its text merely occurs
 * inside a longer one (a heading "Membership" inside "Membership is open to all").
 */
export function rankedContextRelevance(ranking: readonly RankedSentence[], contextSentences: ReadonlySet<string>): number {
  const place = ranking.findIndex((s) => contextSentences.has(s.text));
  return place < 0 ? 0 : 10 / (1 + place);
}
