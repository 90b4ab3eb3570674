import { parentPort } from "node:worker_threads";
import { serveTasks } from "../worker-threads.js";
import type { StoredDocument } from "../domain/types.js";
import { blocksWithText, type BlockShape } from "../domain/blocks.js";
import { createStrategyRegistry } from "./registry.js";
import { loadStrategyModule } from "./strategy-module.js";
import { importedDrafts, type ChunksImport } from "./imported-chunks.js";
import { checkChunkCeiling, searchableCount } from "./chunk-ceiling.js";
import type { ChunkCeiling, ChunkDraft } from "./strategy.js";

/**
 * A chunking worker thread: {strategy, module, imported, options, document, llm} -> the strategy's drafts (the
 * document comes with its blocks' texts left out, see domain/blocks.ts). The
 * embedder and the LLM stay in the thread that asked (with their caches and meters); the
 * strategy reaches them through `call`, so only the chunking's own work runs here. A strategy
 * module's strategy is recreated from its file (imported once per contents; its options carry
 * the contents' hash, so a file edited since the asking thread loaded it is refused, not used).
 * Imported chunks come as the document's chunks; they are located in its text and measured here.
 */
const registry = createStrategyRegistry();

type SentDocument = Omit<StoredDocument, "blocks"> & { blocks: BlockShape[] };

type ChunkTask = {
  strategy: string;
  module: string | null;
  imported: ChunksImport | null;
  /** The stored text where page furniture was blanked in `document`: imported chunks may carry the headers (made from pdftotext's output, say). */
  textWithFurniture: string | null;
  options: Record<string, number>;
  document: SentDocument;
  llm: string | null;
  maxChunks: ChunkCeiling | null;
};

serveTasks(parentPort!, async (message: ChunkTask, call) => {
  const document: StoredDocument = { ...message.document, blocks: blocksWithText(message.document.blocks, message.document.text) };
  const maxChunks = message.maxChunks ?? undefined;
  const drafts = await chunkHere(message, document, call, maxChunks);
  // Past the ceiling, the drafts are dropped here instead of being copied to the asking thread.
  checkChunkCeiling(searchableCount(drafts), message.strategy, maxChunks);
  return { result: drafts };
});

async function chunkHere(
  message: ChunkTask,
  document: StoredDocument,
  call: (payload: unknown) => Promise<any>,
  maxChunks: ChunkCeiling | undefined,
): Promise<ChunkDraft[]> {
  // Imported chunks (imported-chunks.ts) are located in the text and measured here, off the asking thread.
  if (message.imported !== null) return importedDrafts(message.imported, { ...document, textWithFurniture: message.textWithFurniture ?? undefined });
  const definition = message.module === null ? registry.get(message.strategy) : await loadStrategyModule(message.module);
  const strategy = await definition.create(message.options);
  const embed = (texts: string[]): Promise<Float32Array[]> => call({ embed: texts });
  const llm = message.llm === null ? undefined : { name: message.llm, complete: (prompt: string): Promise<string> => call({ complete: prompt }) };
  return strategy.chunk({ document, embed, llm, maxChunks });
}
