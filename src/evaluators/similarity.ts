import { cosine } from "../domain/vectors.js";
import type { Embedder } from "../embedders/embedder.js";
import { contentTerms } from "../text/terms.js";

/** Share of `needle`'s distinct content words that also occur in `haystack` (0-1). */
export function termCoverage(needle: string, haystack: string): number {
  const wanted = new Set(contentTerms(needle));
  if (wanted.size === 0) return 0;
  const have = new Set(contentTerms(haystack));
  let n = 0;
  for (const t of wanted) if (have.has(t)) n++;
  return n / wanted.size;
}

/** Token-level F1 of content words (SQuAD-style), 0-1. */
export function tokenF1(a: string, b: string): number {
  const ta = contentTerms(a);
  const tb = contentTerms(b);
  if (ta.length === 0 || tb.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of tb) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of ta) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      common++;
      counts.set(t, c - 1);
    }
  }
  if (common === 0) return 0;
  const p = common / ta.length;
  const r = common / tb.length;
  return (2 * p * r) / (p + r);
}

/**
 * Answer similarity on 0-10: the mean of the embedding cosine (clamped to 0-1) and the token
 * F1 of content words, so both meaning and the exact facts (numbers, names) count.
 */
export async function answerSimilarity(embedder: Embedder, answer: string, target: string, signal?: AbortSignal): Promise<number> {
  const [a, t] = await embedder.embed([answer, target], signal);
  return 10 * (0.5 * Math.max(0, cosine(a!, t!)) + 0.5 * tokenF1(answer, target));
}
