import { parentPort } from "node:worker_threads";
import { serveTasks } from "../worker-threads.js";
import { parseDocument } from "./parser.js";
import { blockShapes } from "../domain/blocks.js";
import type { ParseLimits } from "./limits.js";

// pdf.js decodes Flate and Brotli streams (content, fonts, CMaps, images) with the global
// DecompressionStream where there is one, which in Node makes a zlib handle per stream; a parsing
// worker is terminated when its request is cancelled or overruns, and one terminated while a
// handle is being made aborts the whole process (see inflate-raw.ts). Without it pdf.js decodes
// them with its own JavaScript decoder, as on a platform that has none.
delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream;

/** A parsing worker thread: {bytes, filename, limits} -> the ParsedDocument, its blocks without their text (parse-pool adds it back). */
serveTasks(parentPort!, async (message: { bytes: Uint8Array; filename: string; limits: ParseLimits }) => {
  const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
  const parsed = await parseDocument(bytes, message.filename, message.limits);
  return { result: { ...parsed, blocks: blockShapes(parsed.blocks) } };
});
