import { Registry, splitSpec } from "../registry.js";
import type { Embedder, EmbedderDefinition, EmbedderSettings } from "./embedder.js";
import { hashEmbedder } from "./hash.js";
import { openAiEmbedder } from "./openai-compatible.js";
import { transformersEmbedder } from "./transformers.js";
import { useEmbedder } from "./use.js";

export function createEmbedderRegistry(): Registry<EmbedderDefinition> {
  return new Registry("embedder", [useEmbedder, hashEmbedder, transformersEmbedder, openAiEmbedder]);
}

export function createEmbedder(registry: Registry<EmbedderDefinition>, spec: string, settings: EmbedderSettings): Promise<Embedder> {
  const { name, argument } = splitSpec(spec);
  return registry.get(name).create(argument, settings);
}
