import type { Embedder } from "../embedders/embedder.js";
import type { CompleteFn } from "../generators/cached-completer.js";
import { Registry, splitSpec } from "../registry.js";
import { createEmbeddingJudge } from "./embedding-judge.js";
import type { Judge } from "../domain/judge.js";
import { createLlmJudge } from "./llm-judge.js";

/** What a judge may be built from; each is opened only when the judge needs it. */
export interface JudgeDeps {
  embedder(): Promise<Embedder>;
  /** A chat model by spec, as a cached completion function. */
  completer(spec: string): Promise<CompleteFn>;
}

export interface JudgeDefinition {
  name: string;
  description: string;
  create(argument: string, deps: JudgeDeps): Promise<Judge>;
}

const embeddingJudge: JudgeDefinition = {
  name: "embedding",
  description: "Offline, deterministic: sentence embeddings and fact checks (numbers, names, negations) against the context and the document",
  async create(_argument, deps) {
    return createEmbeddingJudge(await deps.embedder());
  },
};

const openAiJudge: JudgeDefinition = {
  name: "openai",
  description: "RAGAS-style on any OpenAI-compatible chat model: openai:<model>",
  async create(argument, deps) {
    const spec = `openai:${argument}`;
    return createLlmJudge(spec, await deps.completer(spec), await deps.embedder());
  },
};

export function createJudgeRegistry(): Registry<JudgeDefinition> {
  return new Registry("judge", [embeddingJudge, openAiJudge]);
}

export function createJudge(registry: Registry<JudgeDefinition>, spec: string, deps: JudgeDeps): Promise<Judge> {
  const { name, argument } = splitSpec(spec);
  return registry.get(name).create(argument, deps);
}
