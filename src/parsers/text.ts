import type { Block } from "../domain/types.js";
import type { DocumentFormat, SourceDocument } from "./format.js";
import { decodeUtf8, isUtf8Text } from "./text-family.js";

/** A line that starts a list item: "- ", "* ", "+ ", "• ", "1. ", "1) ", "a) ", indented or not. */
const LIST_ITEM = /^(\s*)(?:[-*+•]|\d{1,3}[.)]|[a-z][.)])\s+\S/;

/**
 * A plain text file as written: its text is the file's (line endings as \n, a byte-order mark
 * dropped), and its blocks are spans of it. Paragraphs are separated by blank lines; a block runs
 * from its first visible character to its last, its wrapped lines and their indents kept. Lines
 * that look like list items are list items (two spaces or a tab of indent per nesting level),
 * their marker in the text: "1. Frost WH." and "+ Case rate 1918" stay what a reader copies (in
 * Markdown the marker is markup, and its parser drops it). Plain text marks no headings, so none
 * are invented. A form feed (the page break of text extractions such as pdftotext's) ends a
 * paragraph and a page, and stays in the text: when a file has one, every block says its page.
 */
export function textDocument(text: string): SourceDocument {
  // One pass over the lines. A line of only spaces and tabs ends the paragraph (a blank first or
  // last line has nothing before or after it to separate), a line of other white space only is
  // passed over, and the list regex runs only on lines whose first character can start a list marker.
  const blocks: Block[] = [];
  let current: Block | null = null;
  const paged = text.includes("\f");
  let page = 1;
  const close = () => {
    if (current) blocks.push({ ...current, text: text.slice(current.start, current.end), ...(paged ? { page } : {}) });
    current = null;
  };
  const lineBreak = /[\n\f]/g;
  for (let lineStart = 0; lineStart <= text.length;) {
    lineBreak.lastIndex = lineStart;
    const newline = paged ? (lineBreak.exec(text)?.index ?? -1) : text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    const first = line.charCodeAt(0);
    if (line.length === 0 || ((first === 0x20 || first === 0x09) && BLANK_LINE.test(line))) close();
    else {
      const visibleFrom = line.length - line.trimStart().length;
      const visibleTo = line.trimEnd().length;
      if (visibleTo > visibleFrom) {
        const item = mayStartListItem(line.charCodeAt(visibleFrom)) ? LIST_ITEM.exec(line) : null;
        if (item) {
          close();
          const indent = item[1]!.replace(/\t/g, "  ").length;
          current = { kind: "list_item", level: 1 + Math.floor(indent / 2), text: "", start: lineStart + visibleFrom, end: lineStart + visibleTo };
        } else if (current) {
          current.end = lineStart + visibleTo; // a wrapped line continues the paragraph or list item
        } else {
          current = { kind: "paragraph", level: 0, text: "", start: lineStart + visibleFrom, end: lineStart + visibleTo };
        }
      }
    }
    if (newline === -1) break;
    if (text.charCodeAt(newline) === 0x0c) {
      close();
      page++;
    }
    lineStart = newline + 1;
  }
  close();
  return { text, blocks };
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
    return textDocument(decodeUtf8(bytes));
  },
};
