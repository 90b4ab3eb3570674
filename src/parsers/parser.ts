import { extname } from "node:path";
import type { Block, ParsedDocument } from "../domain/types.js";
import { unusable, type BlockDraft } from "./format.js";
import { checkUploadSize, DEFAULT_PARSE_LIMITS, type ParseLimits } from "./limits.js";
import { DOCUMENT_FORMATS, SUPPORTED_FORMATS_TEXT } from "./registry.js";
import { collapseWhitespace, SingleLineDraft } from "./whitespace.js";
import { readableText } from "./readability.js";
import { countControls, isUtf8WithoutNul, MAX_CONTROL_SHARE } from "./text-family.js";

/**
 * Parses an uploaded document. The format is the first registered one whose `detect` accepts
 * the bytes (the name only tells Markdown from plain text), and every way a file can be unusable (empty, unknown
 * format, corrupt, encrypted, no text) becomes a ChunkingError whose message names the file and
 * the reason. This runs in the calling thread: uploads go through {@link parseInWorker}
 * (parse-pool.ts), which bounds its memory and time.
 */
export async function parseDocument(bytes: Buffer, filename: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<ParsedDocument> {
  if (bytes.length === 0) unusable(filename, "the file is empty");
  checkUploadSize(bytes.length, filename, limits.maxUploadBytes);
  const format = DOCUMENT_FORMATS.find((f) => f.detect(bytes, filename));
  if (!format) {
    // Every text format accepts valid UTF-8, so what is left is binary or text in another encoding.
    const ext = extname(filename).toLowerCase();
    // Valid UTF-8 that no text format takes holds too many control characters to be text: say how many.
    if (isUtf8WithoutNul(bytes)) {
      const share = countControls(bytes) / bytes.length;
      unusable(
        filename,
        `${Math.max(1, Math.round(share * 100))} % of its bytes are control characters, more than text holds ` +
          `(${MAX_CONTROL_SHARE * 100} %): a binary file, or a terminal log with colour codes? (save it without them)`,
      );
    }
    unusable(
      filename,
      `not a supported document (${SUPPORTED_FORMATS_TEXT}): its bytes match none of them${ext ? `, whatever its ${ext} name says` : ""} ` +
        "(not UTF-8 text? save text as UTF-8)",
    );
  }
  const read = await format.parse(bytes, filename, limits);
  const drafts = Array.isArray(read) ? read : read.blocks;
  const nonEmpty = drafts.filter((b) => b.text.length > 0);
  if (nonEmpty.length === 0) unusable(filename, "the document contains no text");
  const readable = readableText(filename, format.name, nonEmpty, limits.minTextCharacters);
  const parsed = Array.isArray(read)
    ? assembleDocument(format.name, readable.drafts, filename)
    : {
        format: format.name,
        title: titleOf(readable.drafts as Block[], filename),
        text: blankedOutside(read.text, nonEmpty as Block[], readable.drafts as Block[]),
        blocks: readable.drafts as Block[],
      };
  return readable.warnings.length > 0 ? { ...parsed, warnings: readable.warnings } : parsed;
}

/**
 * A text kept as written (plain text) with the blocks the readability check left out blanked,
 * each character a space but its line breaks: they are glyph codes or control characters, and no
 * chunk, search or answer should carry them, while every kept block's offsets stay true.
 */
function blankedOutside(text: string, all: Block[], kept: Block[]): string {
  if (kept.length === all.length) return text;
  const keptSet = new Set(kept);
  let out = "";
  let at = 0;
  for (const block of all) {
    if (keptSet.has(block)) continue;
    out += text.slice(at, block.start) + text.slice(block.start, block.end).replace(/[^\n]/g, " ");
    at = block.end;
  }
  return out + text.slice(at);
}

/** Normalises block texts to single lines and joins them with blank lines, recording offsets. */
export function assembleDocument(format: string, drafts: BlockDraft[], filename: string): ParsedDocument {
  const blocks: Block[] = [];
  // One join at the end: appending to a string builds a rope that costs a pass of its own to flatten.
  const parts: string[] = [];
  let length = 0;
  for (const draft of drafts) {
    const clean = draft instanceof SingleLineDraft ? draft.text : collapseWhitespace(draft.text);
    if (!clean) continue;
    if (parts.length > 0) length += 2; // the "\n\n" between blocks
    const start = length;
    length += clean.length;
    parts.push(clean);
    // Fields written out (no spread), in the order a spread of the draft gave them.
    blocks.push(
      draft.page === undefined
        ? { kind: draft.kind, level: draft.level, text: clean, start, end: length }
        : { kind: draft.kind, level: draft.level, text: clean, page: draft.page, start, end: length },
    );
  }
  return { format, title: titleOf(blocks, filename), text: parts.join("\n\n"), blocks };
}

/** A document's title: its first heading, else its file name without the extension. */
function titleOf(blocks: Block[], filename: string): string {
  return blocks.find((b) => b.kind === "heading")?.text ?? filename.replace(/\.[^.]+$/, "");
}
