import type { Block } from "../domain/types.js";
import { keySentence } from "../strategies/contextual-retrieval.js";
import { contentTerms } from "../text/terms.js";
import type { Span } from "../text/spans.js";

/** What the offline generator says about its output, in the file and in the command's output. */
export const TEMPLATE_NOTICE =
  "Template questions built without a language model (heading + key sentence of each section). " +
  "Useful as a smoke test of the pipeline, not a substitute for real questions: configure an LLM (--generator openai:<model>) for those.";

export interface TemplateQuestion {
  question: string;
  expectedAnswer: string;
  reference: Span & { text: string };
}

export interface Section {
  label: string;
  start: number;
  end: number;
}

/** Leaf sections between headings; a document without headings is taken paragraph by paragraph. */
export function sections(text: string, blocks: Block[]): Section[] {
  const headings = blocks.filter((b) => b.kind === "heading");
  if (headings.length === 0) {
    return blocks
      .filter((b) => b.kind !== "heading")
      .map((b) => ({ label: `the passage that begins "${b.text.split(/\s+/).slice(0, 5).join(" ")}…"`, start: b.start, end: b.end }));
  }
  return headings.map((h, i) => ({ label: `the section "${h.text}"`, start: h.end, end: headings[i + 1]?.start ?? text.length }));
}

/** The two words of a sentence that are the most frequent in its section, in sentence order, never the same term twice. */
function topicWords(sentence: string, sectionText: string): string[] {
  const frequency = new Map<string, number>();
  for (const t of contentTerms(sectionText)) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  // "Oven … a fan oven": one word per term (case and inflection aside), at its first occurrence.
  const seen = new Set<string>();
  const words = (sentence.match(/[\p{L}][\p{L}'-]*/gu) ?? [])
    .map((word, order) => ({ word, order, term: contentTerms(word)[0] }))
    .filter((w): w is { word: string; order: number; term: string } => w.term !== undefined && w.word.length > 2)
    .filter((w) => {
      if (seen.has(w.term)) return false;
      seen.add(w.term);
      return true;
    });
  return words
    .sort((a, b) => (frequency.get(b.term) ?? 0) - (frequency.get(a.term) ?? 0) || a.order - b.order)
    .slice(0, 2)
    .sort((a, b) => a.order - b.order)
    .map((w) => w.word.toLowerCase());
}

/**
 * The offline question generator: for sections spread evenly over the document, the question
 * "What does <section> say about <topic words>?" with the section's key sentence (the one whose
 * words are most frequent in the section) as expected answer and reference. Deterministic.
 * `accept` leaves out candidates (questions copying their excerpt), so others take their place.
 */
export function templateQuestions(text: string, blocks: Block[], count: number, accept: (q: TemplateQuestion) => boolean = () => true): TemplateQuestion[] {
  const candidates: TemplateQuestion[] = [];
  for (const section of sections(text, blocks)) {
    const sentence = keySentence(text, section.start, section.end);
    if (!sentence) continue;
    const start = text.indexOf(sentence, section.start);
    const topic = topicWords(sentence, text.slice(section.start, section.end));
    const about = topic.length > 0 ? ` about ${topic.join(" and ")}` : "";
    const candidate = {
      question: `What does ${section.label} say${about}?`,
      expectedAnswer: sentence,
      reference: { text: sentence, start, end: start + sentence.length },
    };
    if (accept(candidate)) candidates.push(candidate);
  }
  if (candidates.length <= count) return candidates;
  // Evenly spread over the document rather than the first sections only.
  return Array.from({ length: count }, (_, i) => candidates[Math.floor(((i + 0.5) * candidates.length) / count)]!);
}
