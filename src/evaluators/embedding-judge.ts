import { cosine } from "../domain/vectors.js";
import { ZERO_USAGE } from "../domain/metrics.js";
import type { Embedder } from "../embedders/embedder.js";
import { sentenceSpans } from "../text/sentences.js";
import type { Judge } from "./judge.js";
import { answerSimilarity, termCoverage } from "./similarity.js";

/** A context sentence bears on the question at or above this relatedness (0-1). */
export const RELEVANCE_THRESHOLD = 0.4;
/** An answer statement is supported at or above this relatedness to some context sentence. */
export const SUPPORT_THRESHOLD = 0.7;

function sentencesOf(texts: string[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) for (const s of sentenceSpans(text)) seen.add(text.slice(s.start, s.end));
  return [...seen];
}

/**
 * The default judge: no network, deterministic. Relatedness of two texts is the larger of
 * their embedding cosine and the share of the first one's content words found in the second.
 * - context relevance = 10 x share of retrieved sentences related to the question;
 * - faithfulness = 10 x share of answer sentences supported by some retrieved sentence;
 * - answer similarity = see similarity.ts.
 */
export function createEmbeddingJudge(embedder: Embedder): Judge {
  return {
    name: "embedding",
    async judge(input, signal) {
      const sentences = sentencesOf(input.contexts);
      const statements = input.answered ? sentencesOf([input.answer]) : [];
      const vectors = await embedder.embed([input.question, ...sentences, ...statements], signal);
      const q = vectors[0]!;
      const sv = vectors.slice(1, 1 + sentences.length);
      const av = vectors.slice(1 + sentences.length);
      const related = (text: string, vector: Float32Array, otherText: string, otherVector: Float32Array) =>
        Math.max(cosine(vector, otherVector), termCoverage(text, otherText));
      const relevant = sentences.filter((s, i) => related(input.question, q, s, sv[i]!) >= RELEVANCE_THRESHOLD).length;
      const supported = statements.filter((st, i) => sentences.some((s, j) => related(st, av[i]!, s, sv[j]!) >= SUPPORT_THRESHOLD)).length;
      return {
        contextRelevance: sentences.length === 0 ? 0 : (10 * relevant) / sentences.length,
        faithfulness: statements.length === 0 ? null : (10 * supported) / statements.length,
        answerSimilarity: input.target === null ? null : await answerSimilarity(embedder, input.answer, input.target, signal),
        usage: ZERO_USAGE,
      };
    },
  };
}
