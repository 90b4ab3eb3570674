import { mean, retrievalMetrics, type CharSpan } from "./metrics.js";
import { bootstrap, percentileInterval } from "./statistics.js";

/** The cut-offs every question's ranking is scored at. */
export const RANK_CUTS = [1, 3, 5, 10] as const;
/** How deep a benchmark ranks for every question: the deepest cut, or the configured top-k when deeper. */
export const rankingDepth = (topK: number) => Math.max(RANK_CUTS[RANK_CUTS.length - 1]!, topK);

/** One question's ranking scored at one cut-off k. */
export interface RankCut {
  k: number;
  /** Chroma's recall of the top k: the share of reference text they cover. */
  recall: number;
  /** 1/rank of the first of the top k covering at least half a reference; 0 when none does. */
  reciprocalRank: number;
  /** nDCG of the top k graded by the share of each reference they cover; null when no chunk of the strategy touches a reference. */
  ndcg: number | null;
}

/** Every cut's means over a strategy's questions, with 95 % bootstrap intervals over questions. */
export interface RankMetricsAtK {
  k: number;
  recall: number | null;
  mrr: number | null;
  ndcg: number | null;
  confidenceIntervals: { recall: [number, number] | null; mrr: [number, number] | null; ndcg: [number, number] | null };
}

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
 * One question's ranking (the deepest retrieval, in rank order) scored at every cut of RANK_CUTS:
 * recall and reciprocal rank exactly as `retrievalMetrics` computes them on the top k, and nDCG
 * graded by reference coverage against the best ordering of `units`, every chunk the strategy can
 * return. A ranking shorter than k is scored as it is (the missing ranks gain nothing).
 */
export function rankCuts(references: CharSpan[], ranked: CharSpan[], units: CharSpan[]): RankCut[] {
  const depth = RANK_CUTS[RANK_CUTS.length - 1]!;
  const dcg = cumulativeDcg(references, ranked.slice(0, depth));
  const ideal = idealDcg(references, units, depth);
  return RANK_CUTS.map((k) => {
    const top = retrievalMetrics(references, ranked.slice(0, k));
    const got = dcg[Math.min(k, dcg.length) - 1] ?? 0;
    const best = ideal[k - 1]!;
    return { k, recall: top.recall, reciprocalRank: top.reciprocalRank, ndcg: best <= 0 ? null : Math.min(1, got / best) };
  });
}

/** What the cut aggregates read of a question's result. */
export interface RankedQuestion {
  error: string | null;
  rankCuts?: RankCut[];
}

/** Per cut, the means over the questions that were ranked, with 95 % bootstrap intervals over those questions; [] when none was. */
export function aggregateRankCuts(results: RankedQuestion[]): RankMetricsAtK[] {
  const ranked = results.filter((r) => r.error === null && r.rankCuts && r.rankCuts.length > 0).map((r) => r.rankCuts!);
  if (ranked.length === 0) return [];
  return RANK_CUTS.map((k) => {
    const column = (pick: (c: RankCut) => number | null) => ranked.map((cuts) => pick(cuts.find((c) => c.k === k)!));
    const values = { recall: column((c) => c.recall), mrr: column((c) => c.reciprocalRank), ndcg: column((c) => c.ndcg) };
    const interval = (list: Array<number | null>) => percentileInterval(bootstrap(list.length, (indices) => mean(indices.map((i) => list[i]!))));
    return {
      k,
      recall: mean(values.recall),
      mrr: mean(values.mrr),
      ndcg: mean(values.ndcg),
      confidenceIntervals: { recall: interval(values.recall), mrr: interval(values.mrr), ndcg: interval(values.ndcg) },
    };
  });
}
