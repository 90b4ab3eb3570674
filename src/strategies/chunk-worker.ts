import { parentPort } from "node:worker_threads";
import { serveTasks } from "../worker-threads.js";
import type { StoredDocument } from "../domain/types.js";
import { blocksWithText, type BlockShape } from "../domain/blocks.js";
import { createStrategyRegistry } from "./registry.js";
import { loadStrategyModule } from "./strategy-module.js";
import { spansToDrafts } from "./packing.js";
import { TokenIndex } from "../text/token-index.js";
import type { Span } from "../text/spans.js";

/**
 * A chunking worker thread: {strategy, module, spans, options, document, llm} -> the strategy's drafts (the
 * document comes with its blocks' texts left out, see domain/blocks.ts). The
 * embedder and the LLM stay in the thread that asked (with their caches and meters); the
 * strategy reaches them through `call`, so only the chunking's own work runs here. A strategy
 * module's strategy is recreated from its file (imported once per contents; its options carry
 * the contents' hash, so a file edited since the asking thread loaded it is refused, not used).
 * Imported chunks come as spans the asking thread located; they are only measured.
 */
const registry = createStrategyRegistry();

type SentDocument = Omit<StoredDocument, "blocks"> & { blocks: BlockShape[] };

type ChunkTask = { strategy: string; module: string | null; spans: Span[] | null; options: Record<string, number>; document: SentDocument; llm: string | null };

serveTasks(parentPort!, async (message: ChunkTask, call) => {
  const document: StoredDocument = { ...message.document, blocks: blocksWithText(message.document.blocks, message.document.text) };
  // Imported chunks (imported-chunks.ts) arrive located: only their token counts are made here.
  if (message.spans !== null) return { result: spansToDrafts(new TokenIndex(document.text), message.spans) };
  const definition = message.module === null ? registry.get(message.strategy) : await loadStrategyModule(message.module);
  const strategy = await definition.create(message.options);
  const embed = (texts: string[]): Promise<Float32Array[]> => call({ embed: texts });
  const llm = message.llm === null ? undefined : { name: message.llm, complete: (prompt: string): Promise<string> => call({ complete: prompt }) };
  return { result: await strategy.chunk({ document, embed, llm }) };
});
