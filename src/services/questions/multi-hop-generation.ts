import { cosine } from "../../domain/vectors.js";
import { throwIfCancelled } from "../../errors.js";
import { buildMultiHopPrompt } from "../../generators/multi-hop-prompt.js";
import { parseQuestionReply } from "../../generators/question-prompt.js";
import type { Span } from "../../text/spans.js";
import { askWithRetries, emptyTally, type CallTally, type PassageAsking } from "./ask-model.js";

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

export interface MultiHopQuestion {
  question: string;
  expectedAnswer: string | null;
  references: Array<Span & { text: string }>;
}

/** Each passage is paired with the passage most like it. */
export interface MultiHopInput extends PassageAsking {
  /** Locates a reply's excerpts in the document (as for one-passage questions): the references, or why not. */
  locate: (reply: { excerpts: string[] }) => { references: Array<Span & { text: string }> } | { problem: string };
}

export interface MultiHopQuestions extends CallTally {
  questions: MultiHopQuestion[];
  drops: Array<{ reason: "poor_excerpt" | "duplicate"; question: string; detail: string }>;
}

/** For each passage, the other passage whose embedding is closest: two passages about related things make a question that needs both. */
async function partners(input: MultiHopInput): Promise<number[]> {
  const vectors = await input.embedder.embed(
    input.passages.map((p) => input.doc.text.slice(p.start, p.end)),
    input.signal,
  );
  return vectors.map((v, i) => vectors.reduce((best, w, j) => (j !== i && (best < 0 || cosine(v, w) > cosine(v, vectors[best]!)) ? j : best), -1));
}

/**
 * Asks the model for questions whose answer spans two passages, until `count` are kept or
 * `maxCalls` are spent. A question is kept only when its excerpts are located (as for any
 * generated question) and at least one lies in each of the two passages.
 */
export async function generateMultiHopQuestions(input: MultiHopInput): Promise<MultiHopQuestions> {
  const out: MultiHopQuestions = { ...emptyTally(), questions: [], drops: [] };
  if (input.count === 0 || input.passages.length < 2) return out;
  const partnerOf = await partners(input);
  const vectors = [...input.keptVectors];
  const askedOf = new Map<number, string[]>();
  for (let k = 0; out.questions.length < input.count && out.calls < input.maxCalls; k++) {
    throwIfCancelled(input.signal);
    const index = k % input.passages.length;
    const [first, second] = [input.passages[index]!, input.passages[partnerOf[index]!]!];
    const asked = askedOf.get(index) ?? askedOf.set(index, []).get(index)!;
    const text = (p: Span) => input.doc.text.slice(p.start, p.end);
    const prompt = buildMultiHopPrompt(input.doc.title, text(first), text(second), asked);
    const limits = { retries: input.malformedRetries, maxCalls: input.maxCalls, signal: input.signal };
    const reply = await askWithRetries(input.complete, prompt, parseQuestionReply, out, limits);
    if (!reply) continue;
    asked.push(reply.question);
    const located = input.locate(reply);
    if ("problem" in located) {
      out.drops.push({ reason: "poor_excerpt", question: reply.question, detail: `multi-hop: ${located.problem}` });
      continue;
    }
    if (!located.references.some((r) => overlaps(r, first)) || !located.references.some((r) => overlaps(r, second))) {
      out.drops.push({ reason: "poor_excerpt", question: reply.question, detail: "multi-hop: the excerpts do not come from both passages" });
      continue;
    }
    const [vector] = await input.embedder.embed([reply.question], input.signal);
    const nearest = Math.max(-1, ...vectors.map((v) => cosine(vector!, v)));
    if (nearest >= input.duplicateSimilarity) {
      out.drops.push({ reason: "duplicate", question: reply.question, detail: `multi-hop: similarity ${nearest.toFixed(3)} >= ${input.duplicateSimilarity}` });
      continue;
    }
    vectors.push(vector!);
    out.questions.push({ question: reply.question, expectedAnswer: reply.answer, references: located.references });
  }
  return out;
}
