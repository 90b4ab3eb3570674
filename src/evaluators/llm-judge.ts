import { addUsage, ZERO_USAGE } from "../domain/metrics.js";
import type { TokenUsage } from "../domain/types.js";
import type { Embedder } from "../embedders/embedder.js";
import { ProviderError } from "../errors.js";
import type { CompleteFn } from "../generators/cached-completer.js";
import type { Judge } from "../domain/judge.js";
import { answerSimilarity } from "./similarity.js";
import { extractJson } from "../generators/json-reply.js";

export function parseJsonReply(reply: string, what: string): Record<string, unknown> {
  const parsed = extractJson(reply);
  if (!parsed) throw new ProviderError(`judge reply for ${what} could not be parsed as JSON: ${JSON.stringify(reply.slice(0, 120))}`);
  return parsed;
}

const context = (contexts: string[]) => contexts.map((c, i) => `[${i + 1}] ${c}`).join("\n\n");

/**
 * RAGAS-style judge on a chat model: faithfulness by statement extraction then verification
 * against the context; context relevance graded 0-10 by the model; answer similarity by
 * embeddings (as RAGAS does). A reply that cannot be parsed fails the question with its text.
 */
export function createLlmJudge(name: string, complete: CompleteFn, embedder: Embedder): Judge {
  return {
    name,
    // The model reads the context itself: its grade does not depend on how the context was found.
    contextRelevanceUnmeasurable: () => null,
    contextRelevanceJudgedBy: () => `the ${name} model's grade`,
    async judge(input, signal) {
      let usage: TokenUsage = ZERO_USAGE;
      const ask = async (prompt: string, what: string) => {
        const r = await complete(prompt, signal, (text) => extractJson(text) !== null);
        usage = addUsage(usage, r.usage);
        return parseJsonReply(r.text, what);
      };
      const graded = await ask(
        "Rate from 0 to 10 whether the CONTEXT contains the information needed to answer the QUESTION " +
          "(10: everything the answer needs is there; 5: part of it; 0: none of it). " +
          "Judge only whether the needed information is present; unrelated text around it does not lower the score.\n" +
          `QUESTION: ${input.question}\nCONTEXT:\n${context(input.contexts)}\n` +
          'Reply with JSON only: {"score": <number from 0 to 10>}',
        "context relevance",
      );
      const score = Number(graded.score);
      if (!Number.isFinite(score) || score < 0 || score > 10)
        throw new ProviderError(`judge gave context relevance ${JSON.stringify(graded.score)}, not a number from 0 to 10`);

      let faithfulness: number | null = null;
      if (input.answered && input.measureFaithfulness) {
        const extracted = await ask(
          "Break the ANSWER to the QUESTION into short, standalone factual statements.\n" +
            `QUESTION: ${input.question}\nANSWER: ${input.answer}\n` +
            'Reply with JSON only: {"statements": ["...", "..."]}',
          "statement extraction",
        );
        const statements = extracted.statements;
        if (!Array.isArray(statements) || !statements.every((s) => typeof s === "string"))
          throw new ProviderError("judge reply for statement extraction has no list of statements");
        if (statements.length > 0) {
          const verified = await ask(
            "For each STATEMENT, decide whether it can be directly inferred from the CONTEXT (1) or not (0).\n" +
              `CONTEXT:\n${context(input.contexts)}\n` +
              `STATEMENTS:\n${statements.map((s, i) => `${i + 1}. ${s}`).join("\n")}\n` +
              'Reply with JSON only: {"verdicts": [{"statement": "...", "verdict": 1}, ...]} with one verdict per statement, in order.',
            "statement verification",
          );
          const verdicts = verified.verdicts;
          if (!Array.isArray(verdicts) || verdicts.length !== statements.length) {
            throw new ProviderError(`judge returned ${Array.isArray(verdicts) ? verdicts.length : "no"} verdicts for ${statements.length} statements`);
          }
          const supported = verdicts.filter((v) => Number((v as { verdict?: unknown })?.verdict) === 1).length;
          faithfulness = (10 * supported) / statements.length;
        }
      }
      return {
        contextRelevance: score,
        faithfulness,
        answerSimilarity: input.target === null ? null : await answerSimilarity(embedder, input.answer, input.target, signal),
        usage,
      };
    },
  };
}
