import type { VectorHit } from "../stores/vectors/vector-store.js";

/** The constant of reciprocal rank fusion (Cormack et al.): dampens the weight of top ranks. */
export const RRF_K = 60;

/**
 * Fuses ranked lists: score(d) = sum over lists of weight / (RRF_K + rank of d), rank from 1.
 * Equal weights (the default) are plain reciprocal rank fusion; a weaker list gets a smaller weight
 * so that it breaks near-ties of the stronger one instead of outvoting it.
 */
export function reciprocalRankFusion(lists: VectorHit[][], weights: readonly number[] = lists.map(() => 1)): VectorHit[] {
  const scores = new Map<string, number>();
  lists.forEach((list, l) => {
    const weight = weights[l] ?? 1;
    list.forEach((hit, i) => scores.set(hit.chunkId, (scores.get(hit.chunkId) ?? 0) + weight / (RRF_K + i + 1)));
  });
  return [...scores.entries()].map(([chunkId, score]) => ({ chunkId, score })).sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}
