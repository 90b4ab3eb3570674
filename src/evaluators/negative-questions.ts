import type { Block } from "../domain/types.js";
import { withAlreadyAsked } from "../generators/question-prompt.js";
import { extractJson } from "../generators/json-reply.js";
import { contentTerms } from "../text/terms.js";
import { sections } from "./template-questions.js";

/**
 * Negative controls: questions the document cannot answer. A benchmark scores whether the answer
 * abstains on them (docs/examples.md "Negative controls"); they have no reference, so they never enter the
 * span metrics.
 */

/**
 * Subjects far from any document this tool is likely to meet. A template negative asks a real
 * section of the document about one of them, so retrieval finds the section and the answer has
 * to notice that the subject is not there. A subject any of whose words the document uses is
 * not taken: the document might answer it.
 */
const FOREIGN_SUBJECTS = [
  "the migration of arctic terns",
  "the boiling point of tungsten",
  "the orbit of Neptune's moons",
  "the fermentation of sourdough starters",
  "the tuning of a harpsichord",
  "the Byzantine navy's galleys",
  "the mating calls of humpback whales",
  "the glazes of Song dynasty porcelain",
  "the rules of underwater hockey",
  "the pollination of vanilla orchids",
  "the spawning of Pacific salmon",
  "the plumage of emperor penguins",
  "the chanting of Gregorian monks",
  "the eruptions of Icelandic geysers",
  "the carving of Inuit soapstone",
  "the hibernation of dormice",
];

export interface TemplateNegative {
  question: string;
}

/**
 * Up to `count` template negatives: "What does <section> say about <foreign subject>?", over
 * sections spread through the document, each subject used once. Deterministic.
 */
export function templateNegatives(text: string, blocks: Block[], count: number): TemplateNegative[] {
  const used = new Set(contentTerms(text));
  const subjects = FOREIGN_SUBJECTS.filter((s) => !contentTerms(s).some((t) => used.has(t)));
  const labels = sections(text, blocks).map((s) => s.label);
  const n = Math.min(count, subjects.length);
  if (labels.length === 0) return subjects.slice(0, n).map((subject) => ({ question: `What does the document say about ${subject}?` }));
  return subjects.slice(0, n).map((subject, i) => ({
    question: `What does ${labels[Math.floor(((i + 0.5) * labels.length) / n)]} say about ${subject}?`,
  }));
}

/** The prompt that asks a chat model for a question on a passage's subject that the document does not answer. */
export const NEGATIVE_PROMPT_TEMPLATE = [
  'You write evaluation questions for a search system over the document "{title}".',
  "Here is a passage of the document:",
  "<passage>",
  "{passage}",
  "</passage>",
  "Write one question that a reader of this document could plausibly ask about the subject of this passage, but that the passage does not answer " +
    "and that a document of this kind would not be expected to answer elsewhere either (a detail it never gives, not a trick question).",
  'Phrase it as a reader of the whole document would, without "in this passage".',
  'Reply with JSON only: {"question": "..."}',
].join("\n");

export function buildNegativePrompt(title: string, passage: string, alreadyAsked: string[] = []): string {
  return withAlreadyAsked(NEGATIVE_PROMPT_TEMPLATE.replace("{title}", title).replace("{passage}", passage), alreadyAsked);
}

/** The question of a model's reply, or null when the reply is malformed. */
export function parseNegativeReply(reply: string): string | null {
  const json = extractJson(reply);
  const question = json?.question;
  return typeof question === "string" && question.trim() ? question.trim() : null;
}
