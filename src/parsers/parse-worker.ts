import { parentPort } from "node:worker_threads";
import { serveTasks } from "../worker-threads.js";
import { parseDocument } from "./parser.js";
import { blockShapes } from "../domain/blocks.js";
import type { ParseLimits } from "./limits.js";

/** A parsing worker thread: {bytes, filename, limits} -> the ParsedDocument, its blocks without their text (parse-pool adds it back). */
serveTasks(parentPort!, async (message: { bytes: Uint8Array; filename: string; limits: ParseLimits }) => {
  const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
  const parsed = await parseDocument(bytes, message.filename, message.limits);
  return { result: { ...parsed, blocks: blockShapes(parsed.blocks) } };
});
