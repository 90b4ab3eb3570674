import { extractJson } from "./json-reply.js";

/**
 * The prompt that asks a chat model for one evaluation question about a passage, in the manner
 * of Chroma's synthetic evaluation: a question the passage answers, a short answer, and the
 * excerpts that support it copied word for word (they are then located in the document).
 */
export const QUESTION_PROMPT_TEMPLATE = [
  'You write evaluation questions for a search system over the document "{title}".',
  "Here is a passage of the document:",
  "<passage>",
  "{passage}",
  "</passage>",
  'Write one question that this passage answers, phrased as a reader of the whole document would ask it without seeing the passage (no "in this passage").',
  "Give a short expected answer, and copy word for word from the passage the one to three shortest excerpts that contain the answer.",
  'Reply with JSON only: {"question": "...", "answer": "...", "excerpts": ["...", "..."]}',
].join("\n");

/**
 * The prompt for one passage. A passage asked again (more questions wanted than passages gave)
 * lists the questions it already produced, so the model asks about something else and the
 * prompt, hence the cached reply, differs.
 */
export function buildQuestionPrompt(title: string, passage: string, alreadyAsked: string[] = []): string {
  return withAlreadyAsked(QUESTION_PROMPT_TEMPLATE.replace("{title}", title).replace("{passage}", passage), alreadyAsked);
}

/** A passage prompt followed by the questions it already produced, as ones not to ask again. */
export function withAlreadyAsked(prompt: string, alreadyAsked: string[]): string {
  if (alreadyAsked.length === 0) return prompt;
  return [prompt, "These questions were already asked about this passage; ask about something else:", ...alreadyAsked.map((q) => `- ${q}`)].join("\n");
}

export interface GeneratedQuestionReply {
  question: string;
  answer: string | null;
  excerpts: string[];
}

/**
 * Reads a model's reply; null when it is malformed (no JSON object, no question, no excerpt),
 * which the caller retries and then counts.
 */
export function parseQuestionReply(reply: string): GeneratedQuestionReply | null {
  const json = extractJson(reply);
  if (!json) return null;
  const { question, answer, excerpts } = json;
  if (typeof question !== "string" || !question.trim()) return null;
  if (!Array.isArray(excerpts)) return null;
  const texts = excerpts.filter((e): e is string => typeof e === "string" && e.trim() !== "").map((e) => e.trim());
  if (texts.length === 0 || texts.length !== excerpts.length) return null;
  return { question: question.trim(), answer: typeof answer === "string" && answer.trim() ? answer.trim() : null, excerpts: texts };
}
