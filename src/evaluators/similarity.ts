import { cosine } from "../domain/vectors.js";
import type { Embedder } from "../embedders/embedder.js";
import { sentenceSpans } from "../text/sentences.js";
import { contentTerms } from "../text/terms.js";
import { isNegated, namesIn, numbersIn } from "./facts.js";

/**
 * The expected answer's facts that the answer contains, weighted (0-1): numbers and names count
 * double, other content words once. A recall, so an answer is not marked down for saying more.
 */
export function factRecall(expected: string, answer: string): number {
  const answerNumbers = numbersIn(answer);
  const answerTerms = new Set(contentTerms(answer));
  const names = new Set([...namesIn(expected)].flatMap((n) => contentTerms(n)));
  const facts = [
    ...[...numbersIn(expected)].map((n) => ({ weight: 2, found: answerNumbers.has(n) })),
    ...[...new Set(contentTerms(expected.replace(/\d+(?:[.,]\d+)*/g, " ")))].map((t) => ({ weight: names.has(t) ? 2 : 1, found: answerTerms.has(t) })),
  ];
  const total = facts.reduce((n, f) => n + f.weight, 0);
  return total === 0 ? 0 : facts.reduce((n, f) => n + (f.found ? f.weight : 0), 0) / total;
}

/**
 * What is left of the score when the answer's closest sentence contradicts the expected answer
 * (a "not" on one side only): its facts and wording match, but it says the opposite.
 */
const CONTRADICTION_FACTOR = 0.2;

/**
 * Answer similarity on 0-10: 70 % the expected answer's facts found in the answer (factRecall),
 * 30 % the embedding cosine (clamped to 0-1) between the expected answer and the answer's
 * closest sentence. Facts weigh most because sentence-embedding cosines of two correct phrasings
 * rarely pass 0.8; the cosine credits an answer that says the same in other words. Both look for
 * what the answer contains, not how much else it says, so verbosity neither helps nor hurts; a
 * missing or changed number or name does, and a closest sentence of the opposite polarity
 * ("members cannot vote" for "members can vote") keeps only CONTRADICTION_FACTOR of the score.
 */
export async function answerSimilarity(embedder: Embedder, answer: string, target: string, signal?: AbortSignal): Promise<number> {
  const spans = sentenceSpans(answer).map((s) => answer.slice(s.start, s.end));
  const sentences = spans.length > 0 ? spans : [answer];
  const [expected, ...vectors] = await embedder.embed([target, ...sentences], signal);
  const cosines = vectors.map((v) => cosine(expected!, v));
  const closest = cosines.indexOf(Math.max(...cosines));
  const score = 10 * (0.7 * factRecall(target, answer) + 0.3 * Math.max(0, cosines[closest]!));
  return isNegated(sentences[closest]!) === isNegated(target) ? score : score * CONTRADICTION_FACTOR;
}
