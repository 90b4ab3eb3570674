import { lazyRequire } from "../lazy-require.js";
import { DocumentLimitError } from "../errors.js";
import { conciseReason, unusable, type BlockDraft, type DocumentFormat } from "./format.js";
import type { ParseLimits } from "./limits.js";
import { decodeUtf8, isUtf8WithoutNul, singleSpacedSource } from "./text-family.js";

const htmlparser2 = lazyRequire<typeof import("htmlparser2")>("htmlparser2");
import { collapseWhitespace, isWhitespace, SingleLineDraft } from "./whitespace.js";

/** Elements whose content is never text of the document. */
const SKIPPED = new Set(["script", "style", "noscript", "template", "head", "svg", "math", "iframe", "object", "canvas", "select", "textarea"]);
/** Elements that end the running paragraph when they open or close. */
const BLOCK_LEVEL = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "nav",
  "aside",
  "blockquote",
  "pre",
  "figure",
  "figcaption",
  "address",
  "dl",
  "dt",
  "dd",
  "form",
  "fieldset",
  "legend",
  "table",
  "caption",
  "hr",
  "body",
  "html",
  "details",
  "summary",
  "ul",
  "ol",
]);

/**
 * In a single-spaced source, whether appending a piece of text makes white space to collapse: two
 * spaces where the pieces meet, or an entity decoding to white space other than a space (a piece
 * cut from the source holds no white space but single spaces, tabs and line feeds, looked for when
 * the block ends; an entity is one code point, at most two code units).
 */
function makesSpace(beforeEndsWithSpace: boolean, text: string): boolean {
  if (beforeEndsWithSpace && text.charCodeAt(0) === 0x20) return true;
  if (text.length > 2) return false;
  const isOther = (c: number) => c !== 0x20 && isWhitespace(c);
  return isOther(text.charCodeAt(0)) || (text.length === 2 && isOther(text.charCodeAt(1)));
}

/** What an element does to the blocks, looked up once per tag event (one hash lookup, not a chain of tests). */
const enum Role {
  Skipped = 1,
  Break,
  Heading,
  ListItem,
  Row,
  Cell,
  /** Block-level: ends the running paragraph. */
  Block,
  /** p and div: block-level, or a word break inside a table cell. */
  Paragraph,
  /** ul and ol: block-level, and one list level deeper. */
  List,
}
const ROLES = new Map<string, Role>([
  ...[...SKIPPED].map((name) => [name, Role.Skipped] as const),
  ...[...BLOCK_LEVEL].map((name) => [name, name === "p" || name === "div" ? Role.Paragraph : name === "ul" || name === "ol" ? Role.List : Role.Block] as const),
  ...["h1", "h2", "h3", "h4", "h5", "h6"].map((name) => [name, Role.Heading] as const),
  ["br", Role.Break],
  ["li", Role.ListItem],
  ["tr", Role.Row],
  ["td", Role.Cell],
  ["th", Role.Cell],
]);

/** How far into the file the markup that says "HTML" may start (after a BOM, whitespace and comments). */
const SNIFF_CHARS = 4096;

/**
 * True when text starts as an HTML document does: a doctype or an html/head/body tag, after
 * whitespace, comments and (XHTML) an XML declaration. A Markdown or text file that merely contains tags further down is
 * not HTML.
 */
export function looksLikeHtml(bytes: Buffer): boolean {
  let head = bytes
    .subarray(0, SNIFF_CHARS)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  for (;;) {
    head = head.trimStart();
    const opener = head.startsWith("<!--") ? "-->" : /^<\?xml\s/i.test(head) ? "?>" : null; // comments; XHTML's XML declaration
    if (!opener) break;
    const end = head.indexOf(opener);
    if (end === -1) return false;
    head = head.slice(end + opener.length);
  }
  return /^<(!doctype\s+html|html|head|body)[\s>/]/i.test(head);
}

/**
 * Blocks of HTML, read with htmlparser2's streaming parser (no DOM is built): headings h1-h6,
 * paragraphs of running text (p, div and the other block elements end one), list items with
 * their nesting depth, table rows with cells joined by " | ". Script, style and the other
 * non-text elements are skipped; entities are decoded by the parser. Elements and nesting depth
 * are counted as they open, so a bomb is refused at the limit, before it costs memory or time.
 */
export function htmlBlocks(html: string, filename: string, limits: Pick<ParseLimits, "maxHtmlElements" | "maxHtmlDepth">, singleSpaced = false): BlockDraft[] {
  const blocks: BlockDraft[] = [];
  let current: BlockDraft | null = null;
  // With a `singleSpaced` source (see singleSpacedSource), a block's (or cell's) text is already a
  // single line unless a line feed or tab, an entity that decodes to white space, two pieces meeting
  // space to space or white space at its ends made it otherwise: tracked so that it need not be scanned.
  let spaced = false;
  let cellSpaced = false;
  let elements = 0;
  let depth = 0;
  let skipping = 0;
  let listDepth = 0;
  /** The open row's text, its non-empty cells joined by " | " as they close (null outside a row). */
  let row: string | null = null;
  let cell: string | null = null;

  // In a single-spaced file nearly every block stays a single line: its draft is a SingleLineDraft
  // from the start (no copy per block), replaced by a plain one when it turns out otherwise.
  const newDraft = (kind: BlockDraft["kind"], level: number): BlockDraft => (singleSpaced ? new SingleLineDraft(kind, level, "") : { kind, level, text: "" });
  // A source without a tab (one search) spares each block's search for one.
  const tabs = singleSpaced && html.includes("\t");
  const isSingleLine = (text: string, trimmed: string) => trimmed.length === text.length && !text.includes("\n") && !(tabs && text.includes("\t"));
  const flush = () => {
    if (current) {
      const text = current.text;
      const trimmed = text.trim();
      const notSingle = current instanceof SingleLineDraft && (spaced || !isSingleLine(text, trimmed));
      if (trimmed) blocks.push(notSingle ? { kind: current.kind, level: current.level, text } : current);
    }
    current = null;
    spaced = false;
    endsWithSpace = false;
  };
  // Whether the text so far ends with a space, kept rather than read back: charCodeAt on the
  // growing concatenation would flatten it at every piece (quadratic in a paragraph of many pieces).
  let endsWithSpace = false;
  let cellEndsWithSpace = false;
  const append = (block: BlockDraft, text: string) => {
    if (singleSpaced && !spaced && text.length > 0) {
      spaced = makesSpace(endsWithSpace, text);
      endsWithSpace = text.charCodeAt(text.length - 1) === 0x20;
    }
    block.text += text;
  };
  const appendToCell = (text: string) => {
    if (singleSpaced && !cellSpaced && text.length > 0) {
      cellSpaced = makesSpace(cellEndsWithSpace, text);
      cellEndsWithSpace = text.charCodeAt(text.length - 1) === 0x20;
    }
    cell += text;
  };
  const { Parser } = htmlparser2();
  const parser = new Parser(
    {
      // onopentagname, not onopentag: the parser builds an attributes object per tag only for the latter.
      onopentagname(name) {
        elements++;
        depth++;
        if (elements > limits.maxHtmlElements) {
          throw new DocumentLimitError(`${filename}: the HTML has more than max_html_elements (${limits.maxHtmlElements}) elements`);
        }
        if (depth > limits.maxHtmlDepth) {
          throw new DocumentLimitError(`${filename}: the HTML nests elements deeper than max_html_depth (${limits.maxHtmlDepth})`);
        }
        const role = ROLES.get(name);
        if (skipping > 0 || role === Role.Skipped) {
          skipping++;
          return;
        }
        switch (role) {
          case Role.Break:
            if (cell !== null) appendToCell(" ");
            else if (current) append(current, " ");
            break;
          case Role.Heading:
            flush();
            current = newDraft("heading", name.charCodeAt(1) - 48);
            break;
          case Role.ListItem:
            flush();
            current = newDraft("list_item", Math.max(1, listDepth));
            break;
          case Role.Row:
            flush();
            row = "";
            break;
          case Role.Cell:
            if (row !== null) {
              cell = "";
              cellSpaced = false;
              cellEndsWithSpace = false;
            }
            break;
          case Role.Block:
            if (cell === null) flush();
            break;
          case Role.Paragraph: // inside a cell, a paragraph or div only separates words
            if (cell === null) flush();
            else appendToCell(" ");
            break;
          case Role.List:
            if (cell === null) flush();
            listDepth++;
            break;
        }
      },
      ontext(text) {
        if (skipping > 0) return;
        if (cell !== null) appendToCell(text);
        else if (row !== null)
          return; // text between cells (whitespace) belongs to no cell
        else if (current) append(current, text);
        else if (text.trim()) {
          // White space before a paragraph's first text (the line breaks between elements) starts none: it would be trimmed.
          current = newDraft("paragraph", 0);
          append(current, text);
        }
      },
      onclosetag(name) {
        depth--;
        if (skipping > 0) {
          skipping--;
          return;
        }
        switch (ROLES.get(name)) {
          case Role.Heading:
          case Role.ListItem:
            flush();
            break;
          case Role.Cell:
            if (row !== null && cell !== null) {
              const text = singleSpaced && !cellSpaced && isSingleLine(cell, cell.trim()) ? cell : collapseWhitespace(cell);
              if (text) row = row ? `${row} | ${text}` : text;
              cell = null;
            }
            break;
          case Role.Row:
            if (row !== null) {
              if (row) blocks.push(new SingleLineDraft("table_row", 0, row)); // collapsed cells
              row = null;
              cell = null;
            }
            break;
          case Role.List:
            listDepth = Math.max(0, listDepth - 1);
            if (cell === null) flush();
            break;
          case Role.Block:
          case Role.Paragraph:
            if (cell === null) flush();
            break;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.end(html);
  flush();
  return blocks;
}

/** HTML (.html, .htm), recognised by its opening markup whatever the file is called. */
export const htmlFormat: DocumentFormat = {
  name: "html",
  extension: ".html",
  extensions: [".htm"],
  // The sniff reads 4 KB; the UTF-8 check reads the whole file, so it comes second.
  detect: (bytes) => looksLikeHtml(bytes) && isUtf8WithoutNul(bytes),
  async parse(bytes, filename, limits) {
    try {
      return htmlBlocks(decodeUtf8(bytes), filename, limits, singleSpacedSource(bytes));
    } catch (error) {
      if (error instanceof DocumentLimitError) throw error;
      unusable(filename, `the HTML cannot be read (${conciseReason(error)})`, error);
    }
  },
};
