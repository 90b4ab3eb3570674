import { parentPort } from "node:worker_threads";
import { serveTasks } from "../worker-threads.js";
import type { StoredDocument } from "../domain/types.js";
import { createStrategyRegistry } from "./registry.js";

/**
 * A chunking worker thread: {strategy, options, document, llm} -> the strategy's drafts. The
 * embedder and the LLM stay in the thread that asked (with their caches and meters); the
 * strategy reaches them through `call`, so only the chunking's own work runs here.
 */
const registry = createStrategyRegistry();

serveTasks(parentPort!, async (message: { strategy: string; options: Record<string, number>; document: StoredDocument; llm: string | null }, call) => {
  const strategy = await registry.get(message.strategy).create(message.options);
  const embed = (texts: string[]): Promise<Float32Array[]> => call({ embed: texts });
  const llm = message.llm === null ? undefined : { name: message.llm, complete: (prompt: string): Promise<string> => call({ complete: prompt }) };
  return { result: await strategy.chunk({ document: message.document, embed, llm }) };
});
