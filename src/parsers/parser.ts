import { extname } from "node:path";
import CFB from "cfb";
import { ChunkingError } from "../errors.js";
import type { Block, ParsedDocument } from "../domain/types.js";
import { checkUploadSize, DEFAULT_PARSE_LIMITS, type ParseLimits } from "./limits.js";
import { inspectZip, verifyZipContents } from "./zip-guard.js";

/** Upload formats chunkeval reads. */
export const SUPPORTED_EXTENSIONS = [".docx", ".doc"] as const;

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** FIB flag fEncrypted (MS-DOC 2.5.2, FibBase bit 8 of the flags word at offset 0x0A). */
const FIB_FLAGS_OFFSET = 0x0a;
const FIB_ENCRYPTED_BIT = 0x0100;

/** A block's text before offsets are assigned. */
export type BlockDraft = Omit<Block, "start" | "end">;

function fail(filename: string, reason: string, cause?: unknown): never {
  throw new ChunkingError(`${filename}: ${reason}`, { cause });
}

/**
 * Parses an uploaded Word document. The format is decided by the file's bytes, not its name,
 * and every way a file can be unusable (empty, not Word, corrupt, encrypted, no text) becomes
 * a ChunkingError whose message names the file and the reason. A .docx package is checked
 * against the limits before it is unpacked. This runs in the calling thread: uploads go
 * through {@link parseInWorker} (parse-pool.ts), which bounds its memory and time.
 */
export async function parseDocument(bytes: Buffer, filename: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<ParsedDocument> {
  if (bytes.length === 0) fail(filename, "the file is empty");
  checkUploadSize(bytes.length, filename, limits.maxUploadBytes);
  let format: ParsedDocument["format"];
  let drafts: BlockDraft[];
  if (bytes.subarray(0, 4).equals(ZIP_MAGIC)) {
    format = "docx";
    verifyZipContents(bytes, filename, inspectZip(bytes, filename, limits.zip));
    const { extractDocxBlocks } = await import("./docx.js");
    drafts = await extractDocxBlocks(bytes).catch((error: unknown) =>
      fail(filename, `corrupt .docx file (${conciseReason(error)})`, error),
    );
  } else if (bytes.subarray(0, 8).equals(OLE_MAGIC)) {
    format = "doc";
    checkOleContainer(bytes, filename);
    const { extractDocBlocks } = await import("./doc.js");
    drafts = await extractDocBlocks(bytes).catch((error: unknown) =>
      fail(filename, `corrupt .doc file (${conciseReason(error)})`, error),
    );
  } else {
    const ext = extname(filename).toLowerCase();
    fail(filename, `not a Word document (.docx or .doc)${ext ? `: its content does not match ${ext}` : ""}`);
  }
  const nonEmpty = drafts.filter((b) => b.text.length > 0);
  if (nonEmpty.length === 0) fail(filename, "the document contains no text");
  return assembleDocument(format, nonEmpty, filename);
}

/** Rejects OLE files that are encrypted Office documents or not Word documents at all. */
function checkOleContainer(bytes: Buffer, filename: string): void {
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(bytes, { type: "buffer" });
  } catch (error) {
    fail(filename, `corrupt .doc file (${conciseReason(error)})`, error);
  }
  const names = new Set(container.FileIndex.map((entry) => entry.name));
  // Password-protected .docx files are OLE containers holding an encrypted OOXML package.
  if (names.has("EncryptedPackage") || names.has("EncryptionInfo")) {
    fail(filename, "the document is encrypted (password-protected); save it without a password and upload again");
  }
  const wordStream = CFB.find(container, "WordDocument");
  if (!wordStream?.content || wordStream.content.length < FIB_FLAGS_OFFSET + 2) {
    fail(filename, "not a Word document: an OLE file without a Word document stream");
  }
  const fib = Buffer.from(wordStream.content as Uint8Array);
  if (fib.readUInt16LE(FIB_FLAGS_OFFSET) & FIB_ENCRYPTED_BIT) {
    fail(filename, "the document is encrypted (password-protected); save it without a password and upload again");
  }
}

function conciseReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.slice(0, 200);
}

/** Normalises block texts to single lines and joins them with blank lines, recording offsets. */
export function assembleDocument(
  format: ParsedDocument["format"],
  drafts: BlockDraft[],
  filename: string,
): ParsedDocument {
  const blocks: Block[] = [];
  let text = "";
  for (const draft of drafts) {
    const clean = draft.text.replace(/\s+/g, " ").trim();
    if (!clean) continue;
    if (text.length > 0) text += "\n\n";
    blocks.push({ ...draft, text: clean, start: text.length, end: text.length + clean.length });
    text += clean;
  }
  const firstHeading = blocks.find((b) => b.kind === "heading");
  const title = firstHeading?.text ?? filename.replace(/\.[^.]+$/, "");
  return { format, title, text, blocks };
}
