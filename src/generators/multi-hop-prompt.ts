import { withAlreadyAsked } from "./question-prompt.js";

/**
 * The prompt that asks a chat model for a question whose answer needs two passages of the
 * document together, with excerpts copied from each (docs/examples.md "Generated questions"). Its reply
 * has the shape of the one-passage prompt's, so parseQuestionReply reads it.
 */
export const MULTI_HOP_PROMPT_TEMPLATE = [
  'You write evaluation questions for a search system over the document "{title}".',
  "Here are two passages of the document:",
  "<passage A>",
  "{first}",
  "</passage A>",
  "<passage B>",
  "{second}",
  "</passage B>",
  "Write one question that can only be answered by combining information from passage A and passage B (neither alone is enough), " +
    'phrased as a reader of the whole document would ask it without seeing the passages (no "in these passages").',
  "Give a short expected answer, and copy word for word the shortest excerpts that contain the answer: at least one from passage A and one from passage B.",
  'Reply with JSON only: {"question": "...", "answer": "...", "excerpts": ["...", "..."]}',
].join("\n");

export function buildMultiHopPrompt(title: string, first: string, second: string, alreadyAsked: string[] = []): string {
  return withAlreadyAsked(MULTI_HOP_PROMPT_TEMPLATE.replace("{title}", title).replace("{first}", first).replace("{second}", second), alreadyAsked);
}
