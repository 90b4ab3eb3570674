import type { Worker } from "node:worker_threads";
import type { ParsedDocument } from "../domain/types.js";
import { CancelledError, ChunkingError, DocumentLimitError, errorClasses, type ChunkevalError } from "../errors.js";
import { startSiblingWorker } from "../worker-threads.js";
import { checkUploadSize, type ParseLimits } from "./limits.js";
import { inspectZip } from "./zip-guard.js";

/** Files parsed at once; more wait. Each worker may use up to `parse_memory_mb` of heap. */
const MAX_PARSE_WORKERS = 2;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

interface ParseWorker {
  worker: Worker;
  memoryMb: number;
}

/** One warm worker is kept between files, so a run of uploads does not pay a start each. */
let idle: ParseWorker | undefined;
let busy = 0;
const waiting: Array<() => void> = [];

async function acquire(memoryMb: number): Promise<ParseWorker> {
  while (busy >= MAX_PARSE_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  busy++;
  const warm = idle;
  idle = undefined;
  if (warm && warm.memoryMb === memoryMb) {
    warm.worker.ref();
    return warm;
  }
  if (warm) void warm.worker.terminate();
  // The heap limit makes an out-of-memory parse end this worker, never the process.
  const worker = startSiblingWorker(import.meta.url, "parse-worker", { resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, memoryMb / 8)) } });
  return { worker, memoryMb };
}

function release(entry: ParseWorker, reusable: boolean): void {
  busy--;
  if (reusable && !idle) {
    entry.worker.unref();
    idle = entry;
  } else {
    void entry.worker.terminate();
  }
  waiting.shift()?.();
}

function rebuildError(filename: string, className: string, message: string): ChunkevalError {
  const ErrorClass = errorClasses.find((c) => c.name === className);
  return ErrorClass ? new ErrorClass(message) : new ChunkingError(`${filename}: the file cannot be read (${message.split("\n")[0]!.slice(0, 200)})`);
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
  if (signal?.aborted) throw new CancelledError("cancelled before parsing");

  const entry = await acquire(limits.memoryMb);
  const { worker } = entry;
  return new Promise<ParsedDocument>((resolve, reject) => {
    let settled = false;
    const finish = (reusable: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      release(entry, reusable);
      outcome();
    };
    const onMessage = (m: { parsed?: ParsedDocument; error?: { className: string; message: string } }) =>
      finish(true, () => (m.error ? reject(rebuildError(filename, m.error.className, m.error.message)) : resolve(m.parsed!)));
    const onError = (error: Error & { code?: string }) =>
      finish(false, () =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new DocumentLimitError(`${filename}: parsing needs more memory than parse_memory_mb (${limits.memoryMb} MB)`)
            : new ChunkingError(`${filename}: the parser failed (${error.message.split("\n")[0]!.slice(0, 200)})`),
        ),
      );
    const onExit = () => finish(false, () => reject(new ChunkingError(`${filename}: the parser stopped unexpectedly`)));
    const onAbort = () => finish(false, () => reject(new CancelledError(`cancelled while parsing: ${String(signal?.reason ?? "aborted")}`)));
    const timer = setTimeout(
      () => finish(false, () => reject(new DocumentLimitError(`${filename}: parsing took longer than parse_timeout_seconds (${limits.timeoutSeconds})`))),
      limits.timeoutSeconds * 1000,
    );
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    signal?.addEventListener("abort", onAbort, { once: true });
    // A copy of just this file's bytes, transferred (a Buffer may view a larger shared pool).
    const copy = new Uint8Array(bytes);
    worker.postMessage({ bytes: copy, filename, limits }, [copy.buffer]);
  });
}
