import type { AtKMetric } from "./metric.js";
import type { CharSpan } from "../metrics.js";

/** Characters of `span` that `covered` (sorted, disjoint) does not cover yet, as sorted disjoint spans. */
function uncovered(span: CharSpan, covered: CharSpan[]): CharSpan[] {
  const out: CharSpan[] = [];
  let at = span.start;
  for (const c of covered) {
    if (c.end <= at) continue;
    if (c.start >= span.end) break;
    if (c.start > at) out.push({ start: at, end: c.start });
    at = Math.max(at, c.end);
  }
  if (at < span.end) out.push({ start: at, end: span.end });
  return out;
}

/**
 * Per reference, the characters no chunk retrieved so far covers, and the graded gain of a chunk:
 * the mean over references of the share of each reference the chunk covers that earlier chunks
 * did not. A chunk that completes a reference's last half gains as much (for that reference) as
 * one that covered its first half; text retrieved twice gains nothing the second time.
 */
class ReferenceCoverage {
  private readonly open: CharSpan[][];
  constructor(private readonly references: CharSpan[]) {
    this.open = references.map((r) => (r.end > r.start ? [{ ...r }] : []));
  }

  /** The gain `chunk` would add now (0-1). */
  gain(chunk: CharSpan): number {
    let share = 0;
    this.references.forEach((r, i) => {
      const length = r.end - r.start;
      if (length <= 0) return;
      const added = this.open[i]!.reduce((n, o) => n + Math.max(0, Math.min(o.end, chunk.end) - Math.max(o.start, chunk.start)), 0);
      share += added / length;
    });
    return this.references.length === 0 ? 0 : share / this.references.length;
  }

  /** Takes the chunk's characters as covered; returns its gain. */
  take(chunk: CharSpan): number {
    const gained = this.gain(chunk);
    this.open.forEach((spans, i) => {
      this.open[i] = spans.flatMap((o) => uncovered(o, [chunk]));
    });
    return gained;
  }
}

const discount = (rank: number) => 1 / Math.log2(rank + 1);

/** Discounted cumulative gain of each prefix of `ranked` (entry i is DCG@(i+1)). */
function cumulativeDcg(references: CharSpan[], ranked: CharSpan[]): number[] {
  const coverage = new ReferenceCoverage(references);
  let total = 0;
  return ranked.map((chunk, i) => (total += coverage.take(chunk) * discount(i + 1)));
}

/**
 * The ideal DCG@1..depth: the best ordering of the strategy's chunks, built by taking at each
 * rank the chunk that adds the most reference coverage. For chunks that do not overlap (most
 * strategies) this is exactly the best ordering (gains are fixed, sorted descending); for
 * overlapping chunks it is the greedy approximation, so nDCG is capped at 1.
 */
function idealDcg(references: CharSpan[], units: CharSpan[], depth: number): number[] {
  const coverage = new ReferenceCoverage(references);
  let candidates = units.filter((u) => coverage.gain(u) > 0);
  const out: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= depth; rank++) {
    let best = -1;
    let bestGain = 0;
    candidates.forEach((u, i) => {
      const g = coverage.gain(u);
      if (g > bestGain) [best, bestGain] = [i, g];
    });
    if (best >= 0) {
      total += coverage.take(candidates[best]!) * discount(rank);
      candidates = candidates.filter((_, i) => i !== best);
    }
    out.push(total);
  }
  return out;
}

/**
 * nDCG@k graded by reference coverage against the best ordering of `retrievable`, every chunk the strategy
 * can return. A ranking shorter than k is scored as it is (the missing ranks gain nothing); null for a
 * question no chunk of the strategy touches (no ordering gains anything).
 */
export const ndcgAtK: AtKMetric = {
  label: "nDCG@k",
  scale: "0-1",
  direction: "higher",
  field: "ndcg",
  perQuestionField: "ndcg",
  atCuts: (q, cuts) => {
    const depth = Math.max(...cuts);
    const dcg = cumulativeDcg(q.references, q.ranked.slice(0, depth));
    const ideal = idealDcg(q.references, q.retrievable, depth);
    return cuts.map((k) => {
      const got = dcg[Math.min(k, dcg.length) - 1] ?? 0;
      const best = ideal[k - 1]!;
      return best <= 0 ? null : Math.min(1, got / best);
    });
  },
  definition:
    "each chunk of the top k gains the mean over references of the share of that reference it covers that earlier chunks did not " +
    "(text retrieved twice gains nothing), discounted by log2(rank + 1), divided by the same sum for the best ordering of all the strategy's chunks",
};
