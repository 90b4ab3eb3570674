import type { VectorHit } from "../stores/vectors/vector-store.js";

/** The constant of reciprocal rank fusion (Cormack et al.): dampens the weight of top ranks. */
export const RRF_K = 60;

/** Fuses ranked lists: score(d) = sum over lists of 1 / (RRF_K + rank of d), rank from 1. */
export function reciprocalRankFusion(lists: VectorHit[][]): VectorHit[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((hit, i) => scores.set(hit.chunkId, (scores.get(hit.chunkId) ?? 0) + 1 / (RRF_K + i + 1)));
  }
  return [...scores.entries()].map(([chunkId, score]) => ({ chunkId, score })).sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}
