import type { Block } from "../domain/types.js";
import { ChunkingError } from "../errors.js";
import type { ParseLimits } from "./limits.js";

/** A block's text before offsets are assigned. */
export type BlockDraft = Omit<Block, "start" | "end">;

/**
 * A document format chunkeval reads (port). Adding a format is one file exporting one of these
 * and one line in registry.ts.
 */
export interface DocumentFormat {
  /** Stored as the document's `format`, e.g. "docx". */
  name: string;
  /** The file extension users know it by, with the dot. */
  extension: string;
  /** True when the bytes are this format. The format is decided by content, never by file name. */
  detect(bytes: Buffer): boolean;
  /**
   * The document's blocks in reading order. Every way the file can be unusable is thrown as
   * {@link unusable} with a reason a user can act on.
   */
  parse(bytes: Buffer, filename: string, limits: ParseLimits): Promise<BlockDraft[]>;
}

/** The one error of an unusable upload: "FILE: reason". */
export function unusable(filename: string, reason: string, cause?: unknown): never {
  throw new ChunkingError(`${filename}: ${reason}`, { cause });
}

/** The first line of a library's error, bounded: enough to say what is wrong, no stack or paths. */
export function conciseReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.slice(0, 200);
}
