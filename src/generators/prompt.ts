import type { RetrievedChunk, TokenUsage } from "../domain/types.js";
import { countTokens } from "../text/tokens.js";

export const ANSWER_SYSTEM_PROMPT =
  "You answer questions about a document using only the context passages given. " +
  "If the context does not contain the answer, say that it does not. Be concise.";

/** The user message of the answer prompt: numbered context passages, then the question. */
export function buildAnswerPrompt(question: string, contexts: RetrievedChunk[]): string {
  const passages = contexts.map((c, i) => `[${i + 1}] ${c.text}`).join("\n\n");
  return `Context:\n${passages}\n\nQuestion: ${question}\nAnswer:`;
}

/** Token usage counted with the project tokenizer, for generators whose provider reports none. */
export function countUsage(promptParts: string[], completion: string): TokenUsage {
  const promptTokens = promptParts.reduce((n, part) => n + countTokens(part), 0);
  const completionTokens = countTokens(completion);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
