import { ProviderError, ValidationError } from "../errors.js";
import { createOpenAiClient, DEFAULT_OPENAI_BASE_URL, describeProviderError } from "../embedders/openai-compatible.js";
import type { Completion, Generator, GeneratorDefinition } from "./generator.js";
import { isAbstention } from "./abstention.js";
import { ANSWER_SYSTEM_PROMPT, buildAnswerPrompt, countUsage } from "./prompt.js";

export const openAiGenerator: GeneratorDefinition = {
  name: "openai",
  description: "Chat completions on any OpenAI-compatible endpoint (openai:<model>); token usage from the response.",
  async create(model, settings): Promise<Generator> {
    if (!model) throw new ValidationError('openai generator needs a model: "openai:<model>", e.g. openai:gpt-4o-mini');
    const client = await createOpenAiClient(settings.openai);
    const chat = async (system: string | null, user: string, signal?: AbortSignal): Promise<Completion> => {
      const messages = [...(system ? [{ role: "system" as const, content: system }] : []), { role: "user" as const, content: user }];
      let response;
      try {
        response = await client.chat.completions.create({ model, messages, temperature: 0 }, { signal });
      } catch (error) {
        throw describeProviderError(`chat completion with openai:${model}`, error);
      }
      const text = response.choices[0]?.message?.content;
      if (typeof text !== "string") throw new ProviderError(`openai:${model} returned no message content`);
      // Servers that report no usage are counted with the project tokenizer instead.
      const usage = response.usage
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
