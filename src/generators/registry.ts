import { Registry, splitSpec } from "../registry.js";
import type { Generator, GeneratorDefinition, GeneratorSettings } from "./generator.js";
import { extractiveGenerator } from "./extractive.js";
import { openAiGenerator } from "./openai-compatible.js";

export function createGeneratorRegistry(): Registry<GeneratorDefinition> {
  return new Registry("generator", [extractiveGenerator, openAiGenerator]);
}

export function createGenerator(registry: Registry<GeneratorDefinition>, spec: string, settings: GeneratorSettings): Promise<Generator> {
  const { name, argument } = splitSpec(spec);
  return registry.get(name).create(argument, settings);
}
