import { extractJson } from "./json-reply.js";

/**
 * The prompt that asks a chat model to reword a generated question that copies its excerpt:
 * copied wording lets keyword and dense search find the excerpt by its words, whatever the
 * chunking, so the rewrite keeps the meaning and the answer and avoids the excerpt's wording.
 */
export const PARAPHRASE_PROMPT_TEMPLATE = [
  "This evaluation question for a search system copies the wording of the excerpt that answers it:",
  "<question>{question}</question>",
  "<answer>{answer}</answer>",
  "<excerpt>",
  "{excerpts}",
  "</excerpt>",
  "Ask the same question in other words: keep its meaning and its answer, and do not reuse the excerpt's distinctive words",
  "(use synonyms, a description or a more general term instead; keep only the names and numbers the question cannot do without).",
  'Reply with JSON only: {"question": "..."}',
].join("\n");

export function buildParaphrasePrompt(question: string, answer: string | null, excerpts: string[]): string {
  const values: Record<string, string> = { question, answer: answer ?? "(as the excerpt says)", excerpts: excerpts.join("\n") };
  // One pass, so a question that happens to contain "{answer}" is not filled in again.
  return PARAPHRASE_PROMPT_TEMPLATE.replace(/\{(question|answer|excerpts)\}/g, (_, key: string) => values[key]!);
}

/** The rewritten question of a reply; null when the reply is malformed (no JSON object with a non-empty question). */
export function parseParaphraseReply(reply: string): string | null {
  const json = extractJson(reply);
  const question = json?.question;
  return typeof question === "string" && question.trim() ? question.trim() : null;
}
