import type { StoredDocument } from "../../domain/types.js";
import { cosine } from "../../domain/vectors.js";
import { throwIfCancelled } from "../../errors.js";
import { buildNegativePrompt, parseNegativeReply, templateNegatives } from "../../evaluators/negative-questions.js";
import { askWithRetries, emptyTally, type CallTally, type PassageAsking } from "./ask-model.js";

/** A negative control as a questions file holds it: no expected answer, no reference. */
export interface NegativeQuestion {
  question: string;
  expectedAnswer: null;
  references: [];
  answerable: false;
}

const negative = (question: string): NegativeQuestion => ({ question, expectedAnswer: null, references: [], answerable: false });

/** Template negatives (see negative-questions.ts): a real section asked about a subject the document never mentions. */
export function templateNegativeQuestions(doc: StoredDocument, count: number): NegativeQuestion[] {
  return templateNegatives(doc.text, doc.blocks, count).map((q) => negative(q.question));
}

export type LlmNegativesInput = PassageAsking;

export interface LlmNegatives extends CallTally {
  questions: NegativeQuestion[];
  drops: Array<{ reason: "duplicate"; question: string; detail: string }>;
}

/**
 * Asks the model, passage after passage, for a question on the passage's subject that the
 * document does not answer, until `count` are kept or `maxCalls` are spent. Whether the
 * document really cannot answer it is the model's word: nothing here can check it.
 */
export async function generateLlmNegatives(input: LlmNegativesInput): Promise<LlmNegatives> {
  const out: LlmNegatives = { ...emptyTally(), questions: [], drops: [] };
  const vectors = [...input.keptVectors];
  const askedOf = new Map<number, string[]>();
  for (let k = 0; input.passages.length > 0 && out.questions.length < input.count && out.calls < input.maxCalls; k++) {
    throwIfCancelled(input.signal);
    const index = k % input.passages.length;
    const asked = askedOf.get(index) ?? askedOf.set(index, []).get(index)!;
    const passage = input.passages[index]!;
    const prompt = buildNegativePrompt(input.doc.title, input.doc.text.slice(passage.start, passage.end), asked);
    const limits = { retries: input.malformedRetries, maxCalls: input.maxCalls, signal: input.signal };
    const question = await askWithRetries(input.complete, prompt, parseNegativeReply, out, limits);
    if (!question) continue;
    asked.push(question);
    const [vector] = await input.embedder.embed([question], input.signal);
    const nearest = Math.max(-1, ...vectors.map((v) => cosine(vector!, v)));
    if (nearest >= input.duplicateSimilarity) {
      out.drops.push({
        reason: "duplicate",
        question,
        detail: `negative control: similarity ${nearest.toFixed(3)} >= ${input.duplicateSimilarity} with a kept question`,
      });
      continue;
    }
    vectors.push(vector!);
    out.questions.push(negative(question));
  }
  return out;
}
