import { lazyRequire } from "../lazy-require.js";

const mammothLibrary = lazyRequire<typeof import("mammoth")>("mammoth");
import { conciseReason, startsWithBytes, unusable, type BlockDraft, type DocumentFormat } from "./format.js";
import { collapseWhitespace, SingleLineDraft } from "./whitespace.js";
import { inspectZip, verifyZipContents } from "./zip-guard.js";

/** h1-h6 (names are lower-cased): no regex per tag. */
const isHeading = (name: string) => name.length === 2 && name.charCodeAt(0) === 0x68 && name.charCodeAt(1) >= 0x31 && name.charCodeAt(1) <= 0x36;

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  if (!text.includes("&")) return text; // a native search; the regex would scan the text to replace nothing
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === "#") {
      const n = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) ? String.fromCodePoint(n) : whole;
    }
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

/**
 * Extracts blocks in reading order from a .docx. mammoth converts the document to semantic
 * HTML (headings, paragraphs, lists, tables); its output is a small, well-formed tag set, so
 * a tag walker is enough and keeps heading levels, list nesting and table rows.
 */
async function extractDocxBlocks(bytes: Buffer): Promise<BlockDraft[]> {
  const mammoth = mammothLibrary();
  const { value: html } = await mammoth.convertToHtml(
    { buffer: bytes },
    // Title and subtitle paragraphs are headings of the document, not body text.
    {
      styleMap: ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"],
      // Only text is kept: images are never read, so their bytes cost no memory.
      convertImage: mammoth.images.imgElement(async () => ({ src: "" })),
    },
  );
  const blocks: BlockDraft[] = [];
  const listStack: string[] = [];
  let current: BlockDraft | null = null;
  let row: string[] | null = null;
  let cell: string | null = null;

  const flush = () => {
    if (current && current.text.trim()) blocks.push(current);
    current = null;
  };

  const tagRe = /<(\/?)([a-zA-Z0-9]+)[^>]*?(\/?)>|([^<]+)/g;
  let m: RegExpExecArray | null;
  while ((m = tagRe.exec(html)) !== null) {
    const [, closing, rawName, selfClosing, textPart] = m;
    if (textPart !== undefined) {
      const text = decodeEntities(textPart);
      if (cell !== null) cell += text;
      else if (current) current.text += text;
      continue;
    }
    const name = rawName!.toLowerCase();
    if (name === "br" || selfClosing) {
      if (cell !== null) cell += " ";
      else if (current) current.text += " ";
      continue;
    }
    if (!closing) {
      if (isHeading(name)) {
        flush();
        current = { kind: "heading", level: Number(name[1]), text: "" };
      } else if (name === "ul" || name === "ol") {
        flush(); // a nested list ends the text of the item that holds it
        listStack.push(name);
      } else if (name === "li") {
        flush();
        current = { kind: "list_item", level: listStack.length, text: "" };
      } else if (name === "tr") {
        row = [];
      } else if (name === "td" || name === "th") {
        cell = "";
      } else if (name === "p" && cell === null && !current) {
        current = { kind: "paragraph", level: 0, text: "" };
      } else if (name === "p" && cell !== null && cell.trim()) {
        cell += " ";
      }
    } else {
      if (isHeading(name) || name === "li" || (name === "p" && cell === null && current?.kind === "paragraph")) {
        flush();
      } else if (name === "ul" || name === "ol") {
        listStack.pop();
      } else if ((name === "td" || name === "th") && row && cell !== null) {
        row.push(collapseWhitespace(cell));
        cell = null;
      } else if (name === "tr" && row) {
        const cells = row.filter((c) => c.length > 0);
        if (cells.length > 0) blocks.push(new SingleLineDraft("table_row", 0, cells.join(" | "))); // collapsed cells
        row = null;
      }
    }
  }
  flush();
  return blocks;
}

/** Word 2007+ (.docx): a zip package, checked against the limits before it is unpacked. */
export const docxFormat: DocumentFormat = {
  name: "docx",
  extension: ".docx",
  detect: (bytes) => startsWithBytes(bytes, ZIP_MAGIC),
  async parse(bytes, filename, limits) {
    verifyZipContents(bytes, filename, inspectZip(bytes, filename, limits.zip));
    return extractDocxBlocks(bytes).catch((error: unknown) => unusable(filename, `corrupt .docx file (${conciseReason(error)})`, error));
  },
};
