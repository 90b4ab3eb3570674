import WordExtractor from "word-extractor";
import type { BlockDraft } from "./parser.js";

/**
 * Extracts paragraphs from a legacy binary .doc with word-extractor. The binary format keeps
 * no semantic heading markup that word-extractor exposes, so every line is a paragraph, and
 * table cells (tab-separated in its output) become one table row.
 */
export async function extractDocBlocks(bytes: Buffer): Promise<BlockDraft[]> {
  const document = await new WordExtractor().extract(bytes);
  return document
    .getBody()
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) =>
      line.includes("\t")
        ? { kind: "table_row" as const, level: 0, text: line.split("\t").map((c) => c.trim()).filter(Boolean).join(" | ") }
        : { kind: "paragraph" as const, level: 0, text: line },
    );
}
