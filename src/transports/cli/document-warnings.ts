import { printNote } from "./output.js";

/**
 * What reading each document warned of when it was uploaded (pages of glyph codes left out), one
 * note per warning on stderr: a collection or a benchmark over it says it every time, since the
 * stored text still lacks those pages.
 */
export function printDocumentWarnings(documents: ReadonlyArray<{ filename: string; warnings?: string[] }>): void {
  for (const d of documents) for (const warning of d.warnings ?? []) printNote(`chunkeval: warning: ${d.filename}: ${warning}`);
}
