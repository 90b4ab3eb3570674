import type { RetrievedChunk } from "../domain/types.js";
import { sentenceSpans } from "../text/sentences.js";
import { contentTerms } from "../text/terms.js";
import type { Generator, GeneratorDefinition } from "./generator.js";
import { ANSWER_SYSTEM_PROMPT, buildAnswerPrompt, countUsage } from "./prompt.js";

export const NO_ANSWER = "The retrieved context does not contain an answer to this question.";
const MAX_SENTENCES = 3;
/** A sentence joins the answer only if it scores at least this share of the best sentence. */
const RELATIVE_CUTOFF = 0.5;
/**
 * The generator abstains when the retrieved context holds fewer than this share of the
 * question's content words: it is then about something the context does not mention. Kept low
 * because an answerable question often uses words of its own (docs/examples.md "Negative controls" has
 * the figures measured when it was set).
 */
export const MIN_QUESTION_WORDS_IN_CONTEXT = 0.5;

/**
 * Composes an answer from the retrieved sentences that best match the question: each sentence
 * scores the IDF-weighted share of the question's content words it contains (IDF over the
 * retrieved sentences), and up to three top sentences are returned in retrieval order. NO_ANSWER
 * when the context lacks most of the question's words (MIN_QUESTION_WORDS_IN_CONTEXT).
 */
export function extractAnswer(question: string, contexts: RetrievedChunk[]): string {
  const sentences: Array<{ text: string; terms: Set<string>; order: number }> = [];
  const seen = new Set<string>();
  for (const context of contexts) {
    for (const span of sentenceSpans(context.text)) {
      const text = context.text.slice(span.start, span.end);
      if (seen.has(text)) continue; // overlapping chunks repeat sentences
      seen.add(text);
      sentences.push({ text, terms: new Set(contentTerms(text)), order: sentences.length });
    }
  }
  const questionTerms = [...new Set(contentTerms(question))];
  if (sentences.length === 0 || questionTerms.length === 0) return NO_ANSWER;
  const inContext = questionTerms.filter((t) => sentences.some((s) => s.terms.has(t))).length;
  if (inContext < MIN_QUESTION_WORDS_IN_CONTEXT * questionTerms.length) return NO_ANSWER;
  const idf = new Map(questionTerms.map((t) => [t, Math.log(1 + sentences.length / (1 + sentences.filter((s) => s.terms.has(t)).length))]));
  const totalWeight = questionTerms.reduce((n, t) => n + idf.get(t)!, 0);
  const scored = sentences
    .map((s) => ({ ...s, score: questionTerms.reduce((n, t) => n + (s.terms.has(t) ? idf.get(t)! : 0), 0) / totalWeight }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  if (scored.length === 0) return NO_ANSWER;
  const best = scored[0]!.score;
  return scored
    .filter((s) => s.score >= best * RELATIVE_CUTOFF)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.order - b.order)
    .map((s) => s.text)
    .join(" ");
}

export const extractiveGenerator: GeneratorDefinition = {
  name: "extractive",
  description:
    "Offline: answers with the retrieved sentences that best match the question; token usage is what a chat model would have been sent and returned.",
  async create(): Promise<Generator> {
    return {
      name: "extractive",
      isLlm: false,
      async answer(question, contexts) {
        const answer = extractAnswer(question, contexts);
        return { answer, answered: answer !== NO_ANSWER, usage: countUsage([ANSWER_SYSTEM_PROMPT, buildAnswerPrompt(question, contexts)], answer) };
      },
    };
  },
};
