import type { TokenUsage } from "./types.js";

export interface CharSpan {
  start: number;
  end: number;
}

/** Sorted, non-overlapping union of spans. */
export function unionSpans(spans: CharSpan[]): CharSpan[] {
  const sorted = [...spans].filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: CharSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

export function spanLength(spans: CharSpan[]): number {
  return spans.reduce((n, s) => n + s.end - s.start, 0);
}

/** Characters two span unions share. */
export function intersectionLength(a: CharSpan[], b: CharSpan[]): number {
  let n = 0;
  let j = 0;
  for (const s of a) {
    while (j < b.length && b[j]!.end <= s.start) j++;
    for (let k = j; k < b.length && b[k]!.start < s.end; k++) n += Math.min(s.end, b[k]!.end) - Math.max(s.start, b[k]!.start);
  }
  return n;
}

/** A retrieved chunk "finds" a reference when it covers at least this share of the reference. */
export const HIT_COVERAGE = 0.5;

function overlap(a: CharSpan, b: CharSpan): CharSpan | null {
  const start = Math.max(a.start, b.start);
  const end = Math.min(a.end, b.end);
  return end > start ? { start, end } : null;
}

const totalLength = (spans: CharSpan[]) => spans.reduce((n, s) => n + Math.max(0, s.end - s.start), 0);

/**
 * Retrieval metrics by character spans, as Chroma defines them ("Evaluating Chunking Strategies
 * for Retrieval", the chunking_evaluation package). The numerator is the UNION of every
 * chunk ∩ reference intersection, so text retrieved twice counts once. The denominators are
 * SUMS, as Chroma's are: recall divides by the summed reference lengths (overlapping references
 * count twice), precision by the summed retrieved chunk lengths (overlapping chunks count
 * twice, so retrieving the same text twice costs precision), IoU by the summed chunk lengths plus
 * the reference characters no retrieved chunk covers (summed per reference).
 * A hit is a retrieved chunk covering at least HIT_COVERAGE of some reference; the reciprocal
 * rank is 1/rank of the first such chunk (0 when none).
 */
export function retrievalMetrics(references: CharSpan[], retrieved: CharSpan[]) {
  const intersections = retrieved.flatMap((chunk) => references.map((ref) => overlap(chunk, ref)).filter((o): o is CharSpan => o !== null));
  const found = spanLength(unionSpans(intersections));
  const retrievedUnion = unionSpans(retrieved);
  const missed = references.reduce((n, ref) => n + (ref.end - ref.start) - intersectionLength([ref], retrievedUnion), 0);
  const referenceTotal = totalLength(references);
  const retrievedTotal = totalLength(retrieved);
  const firstHit = retrieved.findIndex((chunk) => references.some((ref) => intersectionLength([ref], [chunk]) >= HIT_COVERAGE * (ref.end - ref.start)));
  return {
    recall: referenceTotal === 0 ? 0 : found / referenceTotal,
    precision: retrievedTotal === 0 ? 0 : found / retrievedTotal,
    iou: retrievedTotal + missed === 0 ? 0 : found / (retrievedTotal + missed),
    hit: firstHit === -1 ? 0 : 1,
    reciprocalRank: firstHit === -1 ? 0 : 1 / (firstHit + 1),
  };
}

/**
 * IoU placed on a log scale between retrieving the whole document (0) and retrieving exactly
 * the reference text (1). Chroma's IoU of top-k chunks is a few percent whatever the strategy,
 * so on a linear 0-10 scale it cannot weigh in a composite: halving the retrieved text moves it
 * by a fraction of a point. On this scale every halving or doubling of the retrieved text for
 * the same reference characters moves it by the same step, so retrieving more text is not free.
 */
export function retrievalEfficiency(iou: number, references: CharSpan[], documentLength: number): number {
  const floor = Math.min(1, spanLength(unionSpans(references)) / Math.max(1, documentLength));
  if (iou <= 0) return 0;
  if (floor >= 1) return 1;
  return Math.min(1, Math.max(0, Math.log(iou / floor) / Math.log(1 / floor)));
}

/**
 * Chroma's Precision_Ω for one question: the precision an oracle retriever would get if it
 * returned exactly the chunks that overlap the references. It measures how tightly the chunker
 * carves the excerpts, independent of retrieval: |∪(chunk ∩ reference)| over
 * |∪(overlapping chunks) ∪ references|, both unions. `units` are all the spans the strategy can
 * return (for parent-child strategies, the parents).
 */
export function precisionOmega(references: CharSpan[], units: CharSpan[]): number {
  const touching = units.filter((u) => references.some((r) => overlap(u, r) !== null));
  const intersections = touching.flatMap((u) => references.map((r) => overlap(u, r)).filter((o): o is CharSpan => o !== null));
  const denominator = spanLength(unionSpans([...touching, ...references]));
  return denominator === 0 ? 0 : spanLength(unionSpans(intersections)) / denominator;
}

export function mean(values: Array<number | null>): number | null {
  // One pass, no filtered copy: the bootstrap calls this for every metric of every resample.
  let sum = 0;
  let count = 0;
  for (const v of values) {
    if (v !== null && Number.isFinite(v)) {
      sum += v;
      count++;
    }
  }
  return count === 0 ? null : sum / count;
}

export function standardDeviation(values: Array<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const m = mean(present);
  if (m === null) return null;
  return Math.sqrt(present.reduce((n, v) => n + (v - m) ** 2, 0) / present.length);
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

export const ZERO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
