import type { TokenUsage } from "./types.js";
import type { AggregateMetrics, QuestionResult } from "./experiment.js";

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

/**
 * Retrieval metrics by character spans (Chroma, "Evaluating Chunking Strategies for
 * Retrieval"): with e the reference excerpts and r the retrieved text (unions of spans),
 * recall = |e∩r|/|e|, precision = |e∩r|/|r|, IoU = |e∩r|/(|e|+|r|-|e∩r|). A hit is a retrieved
 * chunk covering at least HIT_COVERAGE of some reference; the reciprocal rank is 1/rank of the
 * first such chunk (0 when none).
 */
export function retrievalMetrics(references: CharSpan[], retrieved: CharSpan[]) {
  const e = unionSpans(references);
  const r = unionSpans(retrieved);
  const shared = intersectionLength(e, r);
  const eLen = spanLength(e);
  const rLen = spanLength(r);
  const firstHit = retrieved.findIndex((chunk) =>
    references.some((ref) => intersectionLength([ref], [chunk]) >= HIT_COVERAGE * (ref.end - ref.start)),
  );
  return {
    recall: eLen === 0 ? 0 : shared / eLen,
    precision: rLen === 0 ? 0 : shared / rLen,
    iou: eLen + rLen - shared === 0 ? 0 : shared / (eLen + rLen - shared),
    hit: firstHit === -1 ? 0 : 1,
    reciprocalRank: firstHit === -1 ? 0 : 1 / (firstHit + 1),
  };
}

export function mean(values: Array<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}

export function standardDeviation(values: Array<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const m = mean(present);
  if (m === null) return null;
  return Math.sqrt(present.reduce((n, v) => n + (v - m) ** 2, 0) / present.length);
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, totalTokens: a.totalTokens + b.totalTokens };
}

export const ZERO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/**
 * Default weights of the composite score. Every term is on a 0-10 scale (recall and MRR are
 * scaled from 0-1); a metric that is missing for a strategy drops out and the rest are
 * re-weighted, so strategies are compared on what could be measured.
 */
export const DEFAULT_WEIGHTS: Record<string, number> = {
  answer_similarity: 0.3,
  faithfulness: 0.2,
  context_relevance: 0.2,
  recall: 0.2,
  mrr: 0.1,
};

export function compositeScore(m: Pick<AggregateMetrics, "avgAnswerSimilarity" | "avgFaithfulness" | "avgContextRelevance" | "avgRecall" | "mrr">, weights: Record<string, number>): number | null {
  const terms: Array<[string, number | null]> = [
    ["answer_similarity", m.avgAnswerSimilarity],
    ["faithfulness", m.avgFaithfulness],
    ["context_relevance", m.avgContextRelevance],
    ["recall", m.avgRecall === null ? null : m.avgRecall * 10],
    ["mrr", m.mrr === null ? null : m.mrr * 10],
  ];
  let sum = 0;
  let weight = 0;
  for (const [name, value] of terms) {
    const w = weights[name] ?? 0;
    if (value === null || w <= 0) continue;
    sum += w * value;
    weight += w;
  }
  return weight === 0 ? null : sum / weight;
}

/** Aggregates one strategy's question results (failed questions are counted, not averaged). */
export function aggregate(results: QuestionResult[], weights: Record<string, number>, hallucinationThreshold: number, costUsd: number): AggregateMetrics {
  const ok = results.filter((r) => r.error === null);
  const pick = (key: keyof QuestionResult["metrics"]) => ok.map((r) => r.metrics[key]);
  const answered = ok.filter((r) => r.answered && r.metrics.faithfulness !== null);
  const partial = {
    avgContextRelevance: mean(pick("contextRelevance")),
    avgAnswerSimilarity: mean(pick("answerSimilarity")),
    avgFaithfulness: mean(pick("faithfulness")),
    hallucinationRate: answered.length === 0 ? null : answered.filter((r) => r.metrics.faithfulness! < hallucinationThreshold).length / answered.length,
    totalQuestions: results.length,
    failedQuestions: results.length - ok.length,
    avgRecall: mean(pick("recall")),
    avgPrecision: mean(pick("precision")),
    avgIou: mean(pick("iou")),
    hitRate: mean(pick("hit")),
    mrr: mean(pick("reciprocalRank")),
  };
  const spread = Object.fromEntries(
    (["contextRelevance", "answerSimilarity", "faithfulness", "recall", "precision", "iou"] as const).map((k) => [k, standardDeviation(pick(k))]),
  );
  const latencies = results.map((r) => r.latency.totalSeconds);
  return {
    ...partial,
    compositeScore: compositeScore(partial, weights),
    spread,
    avgLatencySeconds: mean(latencies),
    totalLatencySeconds: latencies.reduce((a, b) => a + b, 0),
    tokens: results.reduce((u, r) => addUsage(addUsage(u, r.answerTokens), r.judgeTokens), ZERO_USAGE),
    costUsd,
  };
}

/**
 * The best strategy: highest composite score; ties (within 1e-9) go to the lower hallucination
 * rate, then the lower total latency, then the name, so the choice is deterministic.
 */
export function bestStrategy(aggregates: Record<string, AggregateMetrics>): string {
  const entries = Object.entries(aggregates);
  entries.sort(([an, a], [bn, b]) => {
    const score = (b.compositeScore ?? -1) - (a.compositeScore ?? -1);
    if (Math.abs(score) > 1e-9) return score;
    const halluc = (a.hallucinationRate ?? 1) - (b.hallucinationRate ?? 1);
    if (Math.abs(halluc) > 1e-9) return halluc;
    if (a.totalLatencySeconds !== b.totalLatencySeconds) return a.totalLatencySeconds - b.totalLatencySeconds;
    return an.localeCompare(bn);
  });
  return entries[0]![0];
}
