import { parentPort } from "node:worker_threads";
import { serveTasks } from "../worker-threads.js";
import type { StoredDocument } from "../domain/types.js";
import { createStrategyRegistry } from "./registry.js";

/** A chunking worker thread: {strategy, options, document} -> the drafts of a standalone strategy. */
const registry = createStrategyRegistry();

serveTasks(parentPort!, async (message: { strategy: string; options: Record<string, number>; document: StoredDocument }) => {
  const strategy = await registry.get(message.strategy).create(message.options);
  const embed = async (): Promise<Float32Array[]> => {
    throw new Error(`${message.strategy} cannot embed in a chunking worker`);
  };
  return { result: await strategy.chunk({ document: message.document, embed }) };
});
