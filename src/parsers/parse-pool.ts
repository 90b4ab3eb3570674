import type { ParsedDocument } from "../domain/types.js";
import { CancelledError, ChunkingError, DocumentLimitError, restoreError, ServerBusyError, type ChunkevalError } from "../errors.js";
import { WorkerPool, WorkerTaskFailure } from "../worker-threads.js";
import { checkUploadSize, type ParseLimits } from "./limits.js";
import { inspectZip } from "./zip-guard.js";
import { blocksWithText, type BlockShape } from "../domain/blocks.js";

/** Files parsed at once; more wait. Each worker may use up to `parse_memory_mb` of heap. */
const MAX_PARSE_WORKERS = 2;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** One pool per heap limit (normally one: the configured `parse_memory_mb`). */
const pools = new Map<number, WorkerPool>();

function poolFor(memoryMb: number): WorkerPool {
  let pool = pools.get(memoryMb);
  if (!pool) {
    // The heap limit makes an out-of-memory parse end its worker, never the process.
    const resourceLimits = { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(memoryMb / 8))) };
    pool = new WorkerPool(import.meta.url, "parse-worker", { maxWorkers: MAX_PARSE_WORKERS, resourceLimits });
    pools.set(memoryMb, pool);
  }
  return pool;
}

function toChunkevalError(failure: WorkerTaskFailure, filename: string, limits: ParseLimits): ChunkevalError {
  switch (failure.kind) {
    case "timeout":
      return new DocumentLimitError(`${filename}: parsing took longer than parse_timeout_seconds (${limits.timeoutSeconds})`);
    case "memory":
      return new DocumentLimitError(`${filename}: parsing needs more memory than parse_memory_mb (${limits.memoryMb} MB)`);
    case "aborted":
      return new CancelledError(`cancelled while parsing: ${failure.message}`);
    case "crashed":
      return new ChunkingError(`${filename}: the parser failed (${failure.message})`);
    case "busy":
      return new ServerBusyError(
        `${filename}: every parsing worker stayed busy for parse_timeout_seconds (${limits.timeoutSeconds}) with other files; retry later`,
      );
    case "threw":
      return (
        restoreError(failure.className, failure.message) ??
        new ChunkingError(`${filename}: the file cannot be read (${failure.message.split("\n")[0]!.slice(0, 200)})`)
      );
  }
}

/**
 * Parses an uploaded file off the calling thread, within the parsing limits: the size and
 * package checks run first (a zip bomb never reaches a worker), then a worker with a bounded
 * heap parses it under a deadline. A server's event loop stays free meanwhile, and a hostile
 * file ends in a DocumentLimitError naming the setting, never in a crashed process.
 */
export async function parseInWorker(bytes: Buffer, filename: string, limits: ParseLimits, signal?: AbortSignal): Promise<ParsedDocument> {
  if (bytes.length === 0) throw new ChunkingError(`${filename}: the file is empty`);
  checkUploadSize(bytes.length, filename, limits.maxUploadBytes);
  if (bytes.subarray(0, 4).equals(ZIP_MAGIC)) inspectZip(bytes, filename, limits.zip);
  // A copy of just this file's bytes, transferred (a Buffer may view a larger shared pool).
  const copy = new Uint8Array(bytes);
  try {
    const parsed = await poolFor(limits.memoryMb).run<Omit<ParsedDocument, "blocks"> & { blocks: BlockShape[] }>(
      { bytes: copy, filename, limits },
      // The wait for a free worker is bounded too: files that each take their whole deadline cannot starve the rest forever.
      { timeoutMs: limits.timeoutSeconds * 1000, waitMs: limits.timeoutSeconds * 1000, signal, transfer: [copy.buffer] },
    );
    return { ...parsed, blocks: blocksWithText(parsed.blocks, parsed.text) };
  } catch (error) {
    throw error instanceof WorkerTaskFailure ? toChunkevalError(error, filename, limits) : error;
  }
}
