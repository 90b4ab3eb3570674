import type { BlockDraft, DocumentFormat } from "./format.js";
import { decodeUtf8, isUtf8Text } from "./text-family.js";

/** A line that starts a list item: "- ", "* ", "+ ", "• ", "1. ", "1) ", "a) ", indented or not. */
const LIST_ITEM = /^(\s*)(?:[-*+•]|\d{1,3}[.)]|[a-z][.)])\s+(\S.*)$/;

/**
 * Blocks of plain text: paragraphs are separated by blank lines; lines inside a paragraph are
 * joined. Lines that look like list items become list items (two spaces or a tab of indent per
 * nesting level). Plain text marks no headings, so none are invented.
 */
export function textBlocks(text: string): BlockDraft[] {
  const blocks: BlockDraft[] = [];
  for (const paragraph of text.split(/\n[ \t]*\n/)) {
    const lines = paragraph.split("\n").filter((l) => l.trim().length > 0);
    let current: BlockDraft | null = null;
    for (const line of lines) {
      const item = LIST_ITEM.exec(line);
      if (item) {
        if (current) blocks.push(current);
        const indent = item[1]!.replace(/\t/g, "  ").length;
        current = { kind: "list_item", level: 1 + Math.floor(indent / 2), text: item[2]! };
      } else if (current) {
        current.text += ` ${line.trim()}`; // a wrapped line continues the paragraph or list item
      } else {
        current = { kind: "paragraph", level: 0, text: line.trim() };
      }
    }
    if (current) blocks.push(current);
  }
  return blocks;
}

/** Plain text (.txt, or any valid UTF-8 text that no other format claims). Last in the registry. */
export const textFormat: DocumentFormat = {
  name: "txt",
  extension: ".txt",
  detect: (bytes) => isUtf8Text(bytes),
  async parse(bytes) {
    return textBlocks(decodeUtf8(bytes));
  },
};
