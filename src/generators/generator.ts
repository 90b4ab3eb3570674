import type { RetrievedChunk, TokenUsage } from "../domain/types.js";

export interface Generation {
  answer: string;
  /** False when the generator reports that the context holds no answer. */
  answered: boolean;
  usage: TokenUsage;
}

export interface Completion {
  text: string;
  usage: TokenUsage;
  /** True when the reply came from the completion cache (nothing was sent or billed). */
  cached?: boolean;
}

/** Answers a question from retrieved chunks (port). */
export interface Generator {
  /** Full spec, e.g. `extractive` or `openai:gpt-4o-mini`. */
  readonly name: string;
  /** The completion cache's key: what makes its replies what they are (model, endpoint). Default: `name`. */
  readonly cacheKey?: string;
  /** True when the generator is a language model that can also write contexts and verdicts. */
  readonly isLlm: boolean;
  answer(question: string, contexts: RetrievedChunk[], signal?: AbortSignal): Promise<Generation>;
  /** A raw completion; only language models have it. */
  complete?(prompt: string, signal?: AbortSignal): Promise<Completion>;
}

export interface GeneratorSettings {
  openai: { baseUrl?: string; apiKey?: string; maxRetries: number; timeoutSeconds: number };
}

export interface GeneratorDefinition {
  name: string;
  description: string;
  create(argument: string, settings: GeneratorSettings): Promise<Generator>;
}
