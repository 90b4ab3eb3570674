import { CancelledError, ChunkingError, restoreError } from "../errors.js";
import { WorkerPool, WorkerTaskFailure } from "../worker-threads.js";
import type { ChunkDraft, ChunkingContext, ChunkingStrategy } from "./strategy.js";

/**
 * Strategies whose chunking is pure token splitting: they need neither the embedder nor an
 * LLM, so they can run in a worker thread and keep a server's event loop free on long texts.
 */
const STANDALONE = new Set(["recursive", "fixed_size"]);
const MAX_CHUNK_WORKERS = 2;

let pool: WorkerPool | undefined;

/**
 * Chunks a document: standalone strategies in a worker thread (stopped when the context's
 * signal fires, e.g. at a /v1 ingestion deadline), the others in this thread.
 */
export async function chunkOffThread(strategy: ChunkingStrategy, context: ChunkingContext): Promise<ChunkDraft[]> {
  if (!STANDALONE.has(strategy.name)) return strategy.chunk(context);
  pool ??= new WorkerPool(import.meta.url, "chunk-worker", { maxWorkers: MAX_CHUNK_WORKERS });
  try {
    return await pool.run<ChunkDraft[]>({ strategy: strategy.name, options: strategy.options, document: context.document }, { signal: context.signal });
  } catch (error) {
    if (!(error instanceof WorkerTaskFailure)) throw error;
    if (error.kind === "aborted") throw new CancelledError(`cancelled while chunking: ${error.message}`);
    throw restoreError(error.className, error.message) ?? new ChunkingError(`${strategy.name} failed: ${error.message}`);
  }
}
