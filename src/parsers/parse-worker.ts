import { parentPort } from "node:worker_threads";
import { serveTasks } from "../worker-threads.js";
import { parseDocument } from "./parser.js";
import type { ParseLimits } from "./limits.js";

/** A parsing worker thread: {bytes, filename, limits} -> the ParsedDocument. */
serveTasks(parentPort!, async (message: { bytes: Uint8Array; filename: string; limits: ParseLimits }) => {
  const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
  return { result: await parseDocument(bytes, message.filename, message.limits) };
});
