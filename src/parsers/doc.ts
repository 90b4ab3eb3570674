import type CFB from "cfb";
import type WordExtractor from "word-extractor";
import { lazyRequire } from "../lazy-require.js";

const cfbLibrary = lazyRequire<typeof CFB>("cfb");
const wordExtractorLibrary = lazyRequire<typeof WordExtractor>("word-extractor");
import { conciseReason, startsWithBytes, unusable, type BlockDraft, type DocumentFormat } from "./format.js";

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** FIB flag fEncrypted (MS-DOC 2.5.2, FibBase bit 8 of the flags word at offset 0x0A). */
const FIB_FLAGS_OFFSET = 0x0a;
const FIB_ENCRYPTED_BIT = 0x0100;

/**
 * Extracts paragraphs from a legacy binary .doc with word-extractor. The binary format keeps
 * no semantic heading markup that word-extractor exposes, so every line is a paragraph, and
 * table cells (tab-separated in its output) become one table row.
 */
async function extractDocBlocks(bytes: Buffer): Promise<BlockDraft[]> {
  const WordExtractorClass = wordExtractorLibrary();
  const document = await new WordExtractorClass().extract(bytes);
  return document
    .getBody()
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) =>
      line.includes("\t")
        ? {
            kind: "table_row" as const,
            level: 0,
            text: line
              .split("\t")
              .map((c) => c.trim())
              .filter(Boolean)
              .join(" | "),
          }
        : { kind: "paragraph" as const, level: 0, text: line },
    );
}

/** Rejects OLE files that are encrypted Office documents or not Word documents at all. */
function checkOleContainer(bytes: Buffer, filename: string): void {
  let container: CFB.CFB$Container;
  try {
    container = cfbLibrary().read(bytes, { type: "buffer" });
  } catch (error) {
    unusable(filename, `corrupt .doc file (${conciseReason(error)})`, error);
  }
  const names = new Set(container.FileIndex.map((entry) => entry.name));
  // Password-protected .docx files are OLE containers holding an encrypted OOXML package.
  if (names.has("EncryptedPackage") || names.has("EncryptionInfo")) {
    unusable(filename, "the document is encrypted (password-protected); save it without a password and upload again");
  }
  const wordStream = cfbLibrary().find(container, "WordDocument");
  if (!wordStream?.content || wordStream.content.length < FIB_FLAGS_OFFSET + 2) {
    unusable(filename, "not a Word document: an OLE file without a Word document stream");
  }
  const fib = Buffer.from(wordStream.content as Uint8Array);
  if (fib.readUInt16LE(FIB_FLAGS_OFFSET) & FIB_ENCRYPTED_BIT) {
    unusable(filename, "the document is encrypted (password-protected); save it without a password and upload again");
  }
}

/** Legacy binary Word (Word 97-2003), an OLE compound file with a WordDocument stream. */
export const docFormat: DocumentFormat = {
  name: "doc",
  extension: ".doc",
  detect: (bytes) => startsWithBytes(bytes, OLE_MAGIC),
  async parse(bytes, filename) {
    checkOleContainer(bytes, filename);
    return extractDocBlocks(bytes).catch((error: unknown) => unusable(filename, `corrupt .doc file (${conciseReason(error)})`, error));
  },
};
