import type { Block } from "../domain/types.js";
import { ChunkingError } from "../errors.js";
import type { ParseLimits } from "./limits.js";

/** A block's text before offsets are assigned. */
export type BlockDraft = Omit<Block, "start" | "end">;

/**
 * A document whose text is its source as written (plain text): the blocks are spans of `text`
 * (`text.slice(start, end) === block.text`), not single lines joined by blank lines.
 */
export interface SourceDocument {
  text: string;
  blocks: Block[];
}

/**
 * A document format chunkeval reads (port). Adding a format is one file exporting one of these
 * and one line in registry.ts.
 */
export interface DocumentFormat {
  /** Stored as the document's `format`, e.g. "docx". */
  name: string;
  /** The file extension users know it by, with the dot; `extensions` adds the others it is known by (.htm, .markdown). */
  extension: string;
  extensions?: readonly string[];
  /**
   * True when the bytes are this format. The format is decided by content: a binary signature
   * (zip, OLE, %PDF-) or, for text, valid UTF-8 and its markup. The file name is a hint only
   * where bytes cannot tell: Markdown and plain text are the same bytes, so a `.md` name picks
   * Markdown within the text family. A name never overrides bytes (a PDF named .docx is a PDF).
   */
  detect(bytes: Buffer, filename: string): boolean;
  /**
   * The document's blocks in reading order, for parser.ts to join into its text; or its text as
   * written with the blocks' spans in it ({@link SourceDocument}). Every way the file can be
   * unusable is thrown as {@link unusable} with a reason a user can act on.
   */
  parse(bytes: Buffer, filename: string, limits: ParseLimits): Promise<BlockDraft[] | SourceDocument>;
}

/**
 * True when the bytes start with `prefix`. Detection runs every format's check on every upload:
 * comparing a few bytes in place costs less than the Buffer a subarray().equals() allocates.
 */
export function startsWithBytes(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
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
