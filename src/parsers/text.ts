import type { BlockDraft, DocumentFormat } from "./format.js";
import { decodeUtf8, isUtf8Text, singleSpacedSource } from "./text-family.js";
import { SingleLineDraft } from "./whitespace.js";

/** A line that starts a list item: "- ", "* ", "+ ", "• ", "1. ", "1) ", "a) ", indented or not. */
const LIST_ITEM = /^(\s*)(?:[-*+•]|\d{1,3}[.)]|[a-z][.)])\s+\S/;

/**
 * Blocks of plain text: paragraphs are separated by blank lines; lines inside a paragraph are
 * joined. Lines that look like list items become list items (two spaces or a tab of indent per
 * nesting level) with their marker kept: a plain text file's text is its text as written, so
 * "1. Frost WH." and "+ Case rate 1918" stay what a reader copies (in Markdown the marker is
 * markup, and its parser drops it). Plain text marks no headings, so none are invented.
 */
export function textBlocks(text: string, singleSpaced = false): BlockDraft[] {
  // One pass over the lines. A line of only spaces and tabs ends the paragraph (as splitting on
  // /\n[ \t]*\n/ did: a blank first or last line has nothing before or after it to separate), a
  // line of other white space only is skipped, and the list regex runs only on lines whose first
  // character can start a list marker.
  const blocks: BlockDraft[] = [];
  let current: BlockDraft | null = null;
  // In a single-spaced file (see singleSpacedSource) lines hold no white space but single spaces and
  // tabs, so a block of trimmed lines without a tab joined by spaces is a single line already (a
  // list item's own text, the rest of its line, must not end with white space either).
  let singleLine = false;
  const push = (block: BlockDraft) => blocks.push(singleLine ? new SingleLineDraft(block.kind, block.level, block.text) : block);
  for (const line of text.split("\n")) {
    const first = line.charCodeAt(0);
    if (line.length === 0 || ((first === 0x20 || first === 0x09) && BLANK_LINE.test(line))) {
      if (current) push(current);
      current = null;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed.length === 0) continue;
    const item = mayStartListItem(trimmed.charCodeAt(0)) ? LIST_ITEM.exec(line) : null;
    if (item) {
      if (current) push(current);
      const indent = item[1]!.replace(/\t/g, "  ").length;
      current = { kind: "list_item", level: 1 + Math.floor(indent / 2), text: trimmed };
      singleLine = singleSpaced && !trimmed.includes("\t");
    } else if (current) {
      current.text += ` ${trimmed}`; // a wrapped line continues the paragraph or list item
      if (singleLine && trimmed.includes("\t")) singleLine = false;
    } else {
      current = { kind: "paragraph", level: 0, text: trimmed };
      singleLine = singleSpaced && !trimmed.includes("\t");
    }
  }
  if (current) push(current);
  return blocks;
}

const BLANK_LINE = /^[ \t]*$/;

/** The characters a list marker starts with: - * + • a digit or a lower-case letter. */
function mayStartListItem(c: number): boolean {
  return c === 0x2d || c === 0x2a || c === 0x2b || c === 0x2022 || (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);
}

/** Plain text (.txt, or any valid UTF-8 text that no other format claims). Last in the registry. */
export const textFormat: DocumentFormat = {
  name: "txt",
  extension: ".txt",
  detect: (bytes) => isUtf8Text(bytes),
  async parse(bytes) {
    return textBlocks(decodeUtf8(bytes), singleSpacedSource(bytes));
  },
};
