import { parentPort } from "node:worker_threads";
import { parseDocument } from "./parser.js";
import type { ParseLimits } from "./limits.js";

/** A parsing worker: answers {bytes, filename, limits} with {parsed} or {error: {className, message}}. */
parentPort!.on("message", async (message: { bytes: Uint8Array; filename: string; limits: ParseLimits }) => {
  try {
    const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    parentPort!.postMessage({ parsed: await parseDocument(bytes, message.filename, message.limits) });
  } catch (error) {
    const className = error instanceof Error ? error.constructor.name : "Error";
    parentPort!.postMessage({ error: { className, message: error instanceof Error ? error.message : String(error) } });
  }
});
