import { ProviderError, ValidationError } from "../errors.js";
import { createOpenAiClient, DEFAULT_OPENAI_BASE_URL, describeProviderError } from "../embedders/openai-compatible.js";
import type { Completion, Generator, GeneratorDefinition } from "./generator.js";
import { isAbstention } from "./abstention.js";
import { spendChatCall } from "./call-budget.js";
import { ANSWER_SYSTEM_PROMPT, buildAnswerPrompt, countUsage } from "./prompt.js";

function validUsage(usage: unknown): usage is { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const u = usage as Record<string, unknown> | null | undefined;
  return !!u && [u.prompt_tokens, u.completion_tokens, u.total_tokens].every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0);
}

export const openAiGenerator: GeneratorDefinition = {
  name: "openai",
  description: "Chat completions on any OpenAI-compatible endpoint (openai:<model>); token usage from the response.",
  async create(model, settings): Promise<Generator> {
    if (!model) throw new ValidationError('openai generator needs a model: "openai:<model>", e.g. openai:gpt-4o-mini');
    const client = await createOpenAiClient(settings.openai);
    const chat = async (system: string | null, user: string, signal?: AbortSignal): Promise<Completion> => {
      const messages = [...(system ? [{ role: "system" as const, content: system }] : []), { role: "user" as const, content: user }];
      await spendChatCall(`openai:${model}`);
      let response;
      try {
        response = await client.chat.completions.create({ model, messages, temperature: 0 }, { signal });
      } catch (error) {
        throw describeProviderError(`chat completion with openai:${model}`, error);
      }
      // A compatible server may answer anything: a reply without choices is its error, not ours.
      const choices = (response as { choices?: unknown } | null)?.choices;
      const text = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content : undefined;
      if (typeof text !== "string") throw new ProviderError(`openai:${model} returned no message content (a reply without choices[0].message.content)`);
      // Servers that report no usage (or not as numbers) are counted with the project tokenizer instead.
      const usage = validUsage(response.usage)
        ? {
            promptTokens: response.usage.prompt_tokens,
            completionTokens: response.usage.completion_tokens,
            totalTokens: response.usage.total_tokens,
          }
        : countUsage([system ?? "", user], text);
      return { text, usage };
    };
    return {
      name: `openai:${model}`,
      // The same model name on another server (a local one, say) is another model.
      cacheKey: `openai:${model} temperature=0 at ${settings.openai.baseUrl ?? DEFAULT_OPENAI_BASE_URL}`,
      isLlm: true,
      async answer(question, contexts, signal) {
        const { text, usage } = await chat(ANSWER_SYSTEM_PROMPT, buildAnswerPrompt(question, contexts), signal);
        // Told to say so when the context lacks the answer (prompt.ts): such a reply is an abstention.
        return { answer: text.trim(), answered: !isAbstention(text), usage };
      },
      complete: (prompt, signal) => chat(null, prompt, signal),
    };
  },
};
