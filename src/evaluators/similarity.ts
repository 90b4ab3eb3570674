import { cosine } from "../domain/vectors.js";
import type { Embedder } from "../embedders/embedder.js";
import { sentenceSpans } from "../text/sentences.js";
import { contentTerms } from "../text/terms.js";
import { namesIn, numbersIn } from "./facts.js";

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
 * Answer similarity on 0-10: 70 % the expected answer's facts found in the answer (factRecall),
 * 30 % the embedding cosine (clamped to 0-1) between the expected answer and the answer's
 * closest sentence. Facts weigh most because sentence-embedding cosines of two correct phrasings
 * rarely pass 0.8; the cosine credits an answer that says the same in other words. Both look for what the answer contains, not how much else it says, so
 * verbosity neither helps nor hurts; a missing or changed number or name does.
 */
export async function answerSimilarity(embedder: Embedder, answer: string, target: string, signal?: AbortSignal): Promise<number> {
  const sentences = sentenceSpans(answer).map((s) => answer.slice(s.start, s.end));
  const [expected, ...vectors] = await embedder.embed([target, ...(sentences.length > 0 ? sentences : [answer])], signal);
  const closest = Math.max(...vectors.map((v) => cosine(expected!, v)));
  return 10 * (0.7 * factRecall(target, answer) + 0.3 * Math.max(0, closest));
}
