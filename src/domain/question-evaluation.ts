import type { CharSpan } from "./metrics.js";
import { retrievalMetrics } from "./metrics.js";
import type { JudgeVerdict } from "./judge.js";

/**
 * What one question's evaluation has once its chunks are retrieved: what a per-question metric
 * (`perQuestion.compute` in its file under `src/domain/metric-registry/`) is computed from.
 * Spans are on the corpus axis (a collection's documents one after another).
 */
export interface RetrievedQuestion {
  question: string;
  expectedAnswer: string | null;
  /** False for a negative control (a question the document cannot answer). */
  answerable: boolean;
  /** The reference excerpts (empty when the question has none). */
  references: CharSpan[];
  /** The chunks the answer reads (the first top_k), in rank order. */
  retrieved: CharSpan[];
  /** Every span the strategy can return (for parent-child strategies, the parents). */
  retrievable: CharSpan[];
  /** Characters of everything searched. */
  corpusLength: number;
}

/** A question's evaluation once it is answered and judged (never in a dry run). */
export interface AnsweredQuestion extends RetrievedQuestion {
  answer: string;
  /** False when the generator said the context holds no answer. */
  answered: boolean;
  /** The judge's scores: one call scores every judged metric of the question. */
  verdict: Omit<JudgeVerdict, "usage">;
}

const spanScoresOf = new WeakMap<RetrievedQuestion, ReturnType<typeof retrievalMetrics>>();

/**
 * Chroma's span scores of the question (recall, precision, IoU, hit, reciprocal rank), computed
 * once per question however many metrics read them: they share one pass over the intersections.
 */
export function spanScores(q: RetrievedQuestion): ReturnType<typeof retrievalMetrics> {
  let scores = spanScoresOf.get(q);
  if (!scores) {
    scores = retrievalMetrics(q.references, q.retrieved);
    spanScoresOf.set(q, scores);
  }
  return scores;
}

/**
 * One question's ranking, as deep as a benchmark ranks (`rankingDepth`), on the corpus axis: what an at-k
 * metric (`atCuts` in its file under `src/domain/metric-registry/`) is computed from. The answer reads its first top_k.
 */
export interface QuestionRanking {
  /** The reference excerpts (only questions that have some are ranked). */
  references: CharSpan[];
  /** The chunks retrieved, in rank order. */
  ranked: CharSpan[];
  /** Every span the strategy can return (for parent-child strategies, the parents). */
  retrievable: CharSpan[];
}

const cutScoresOf = new WeakMap<QuestionRanking, Map<number, ReturnType<typeof retrievalMetrics>>>();

/** Chroma's span scores of the ranking's first k chunks, computed once per question and cut however many at-k metrics read them. */
export function spanScoresAtK(q: QuestionRanking, k: number): ReturnType<typeof retrievalMetrics> {
  let byK = cutScoresOf.get(q);
  if (!byK) {
    byK = new Map();
    cutScoresOf.set(q, byK);
  }
  let scores = byK.get(k);
  if (!scores) {
    scores = retrievalMetrics(q.references, q.ranked.slice(0, k));
    byK.set(k, scores);
  }
  return scores;
}
