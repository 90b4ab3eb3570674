import { CancelledError, ChunkingError, DocumentLimitError, restoreError } from "../errors.js";
import { WorkerPool, WorkerTaskFailure } from "../worker-threads.js";
import { blockShapes } from "../domain/blocks.js";
import { withoutPageFurniture } from "./page-furniture.js";
import type { ChunkDraft, ChunkingContext, ChunkingStrategy } from "./strategy.js";

const MAX_CHUNK_WORKERS = 2;

let pool: WorkerPool | undefined;

/**
 * Chunks a document in a worker thread, stopped when the context's signal fires (e.g. at a /v1
 * ingestion deadline) or past `chunk_timeout_seconds` of its own work, so tokenising and cutting a long text never blocks a server's event
 * loop. What a strategy needs from this thread, embeddings (semantic strategies) and LLM
 * completions (contextual retrieval), it asks for while it runs.
 */
export async function chunkOffThread(strategy: ChunkingStrategy, context: ChunkingContext, limits: { timeoutSeconds: number }): Promise<ChunkDraft[]> {
  pool ??= new WorkerPool(import.meta.url, "chunk-worker", { maxWorkers: MAX_CHUNK_WORKERS });
  const onRequest = async (payload: { embed?: string[]; complete?: string }) => {
    if (payload.embed) return context.embed(payload.embed, context.signal);
    if (payload.complete !== undefined && context.llm) return context.llm.complete(payload.complete, context.signal);
    throw new Error("a chunking worker asked for something this thread does not offer");
  };
  const chunked = context.keepPageFurniture ? context.document : withoutPageFurniture(context.document);
  const document = { ...chunked, blocks: blockShapes(chunked.blocks) };
  const message = {
    strategy: strategy.name,
    module: strategy.module ?? null,
    imported: strategy.importedChunks?.(context.document) ?? null,
    textWithFurniture: chunked === context.document ? null : context.document.text,
    options: strategy.options,
    document,
    llm: context.llm?.name ?? null,
    maxChunks: context.maxChunks ?? null,
  };
  try {
    return await pool.run<ChunkDraft[]>(message, { signal: context.signal, onRequest, timeoutMs: limits.timeoutSeconds * 1000 });
  } catch (error) {
    if (!(error instanceof WorkerTaskFailure)) throw error;
    if (error.kind === "aborted") throw new CancelledError(`cancelled while chunking: ${error.message}`);
    if (error.kind === "timeout") {
      throw new DocumentLimitError(`chunking with ${strategy.name} took longer than chunk_timeout_seconds (${limits.timeoutSeconds})`);
    }
    throw restoreError(error.className, error.message) ?? new ChunkingError(`${strategy.name} failed: ${error.message}`);
  }
}
