import { constants, inflateRawSync } from "node:zlib";
import { ChunkevalError, DocumentLimitError } from "../errors.js";
import { conciseReason, unusable, type BlockDraft, type DocumentFormat } from "./format.js";
import type { ParseLimits } from "./limits.js";
import { isUtf8Text } from "./text-family.js";

const MB = 1024 * 1024;
const PDF_MAGIC = Buffer.from("%PDF-");
/** Readers accept the header anywhere in the first KB (junk before it is common). */
const HEADER_WINDOW = 1024;

/** PDF names may escape characters as #xx (`/Flate#44ecode` is /FlateDecode, as pdfjs reads it). */
const unescapeNames = (text: string) => text.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Indirect objects by "num gen", built on first use in one pass (the last definition wins, as
 * with incremental updates): the text of an object, to resolve a /Length or /Filter given by reference.
 */
function objectIndex(text: string): (num: string, gen: string) => string {
  let positions: Map<string, number> | null = null;
  return (num, gen) => {
    if (!positions) {
      positions = new Map();
      const re = /(\d+)\s+(\d+)\s+obj\b/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) !== null) positions.set(`${Number(m[1])} ${Number(m[2])}`, m.index + m[0].length);
    }
    const at = positions.get(`${Number(num)} ${Number(gen)}`);
    if (at === undefined) return "";
    const body = text.slice(at, at + 4096);
    const end = body.indexOf("endobj");
    return end === -1 ? body : body.slice(0, end);
  };
}

/**
 * Checks, before pdfjs reads anything, that the PDF's FlateDecode streams unpack to at most
 * `max_unpacked_mb` in total. pdfjs inflates a content stream whole into a typed array, memory a
 * worker's heap limit does not bound, so a 300 KB file whose stream inflates to gigabytes (the
 * object-stream bomb) would otherwise cost that much. Each stream is inflated by zlib with its
 * output capped at what is left of the budget, so this check costs at most the budget itself.
 * Streams are found as pdfjs finds them: the `stream` keyword after the object's dictionary, the
 * data's /Length when it is right (direct, or an indirect number object), else up to the next
 * `endstream`; a /Filter given by reference is resolved. Every scan moves forward, so the check
 * is linear in the file.
 */
function checkUnpackedStreams(bytes: Buffer, filename: string, maxUnpackedBytes: number): void {
  const text = bytes.toString("latin1");
  let budget = maxUnpackedBytes;
  const indirectObject = objectIndex(text);
  const refuse = () => {
    throw new DocumentLimitError(`${filename}: the PDF's compressed streams unpack to more than max_unpacked_mb (${maxUnpackedBytes / MB} MB)`);
  };
  const streamRe = /stream(\r\n|\n|\r)/g;
  let previousEnd = 0;
  let m: RegExpExecArray | null;
  while ((m = streamRe.exec(text)) !== null) {
    if (text.startsWith("end", m.index - 3)) continue;
    const before = text.slice(previousEnd, m.index);
    const objAt = before.lastIndexOf("obj");
    let dict = unescapeNames(objAt === -1 ? before : before.slice(objAt));
    const filterRef = /\/Filter\s+(\d+)\s+(\d+)\s+R/.exec(dict);
    if (filterRef) dict += unescapeNames(indirectObject(filterRef[1]!, filterRef[2]!));
    const flateFilters = (dict.match(/\/(FlateDecode|Fl)(?![A-Za-z0-9])/g) ?? []).length;
    const dataStart = m.index + m[0].length;
    let dataEnd = -1;
    const lengthMatch = /\/Length\s+(\d+)(?:\s+(\d+)\s+R)?/.exec(dict);
    if (lengthMatch) {
      let length = Number(lengthMatch[1]);
      if (lengthMatch[2] !== undefined) {
        const ref = /^\s*(\d+)\s*$/.exec(indirectObject(lengthMatch[1]!, lengthMatch[2]));
        length = ref ? Number(ref[1]) : -1;
      }
      if (length >= 0 && /^\s*endstream/.test(text.slice(dataStart + length, dataStart + length + 16))) dataEnd = dataStart + length;
    }
    if (dataEnd === -1) dataEnd = text.indexOf("endstream", dataStart);
    if (dataEnd === -1) dataEnd = text.length;
    streamRe.lastIndex = dataEnd;
    previousEnd = dataEnd;
    if (flateFilters === 0) continue;
    let data = bytes.subarray(dataStart, dataEnd);
    // A stream may name Flate more than once ([/FlateDecode /FlateDecode]): each layer counts.
    for (let layer = 0; layer < flateFilters && data.length > 2; layer++) {
      try {
        // Raw inflate past the 2-byte zlib header: no checksum to trip over, and a truncated
        // stream yields what it holds, as pdfjs reads it.
        data = inflateRawSync(data.subarray(2), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: budget + 1 });
      } catch (error) {
        if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") refuse();
        break; // corrupt data: pdfjs stops reading it too
      }
      if (data.length > budget) refuse();
    }
    budget -= data.length;
  }
}

/** A line of text rebuilt from pdfjs's text items. */
interface Line {
  text: string;
  /** Baseline from the page's bottom, and the line's largest font height. */
  y: number;
  size: number;
  page: number;
}

interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/**
 * Lines of one page: items join until one ends a line (hasEOL) or the next sits on another
 * baseline; a space goes between items the text leaves a gap between.
 */
function pageLines(items: TextItemLike[], page: number): Line[] {
  const lines: Line[] = [];
  let current: (Line & { xEnd: number }) | null = null;
  for (const item of items) {
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const size = Math.abs(item.height) || Math.abs(item.transform[3] ?? 0);
    if (item.str.length > 0) {
      if (current && Math.abs(current.y - y) > Math.max(current.size, size) * 0.5) {
        lines.push(current);
        current = null;
      }
      if (!current) current = { text: item.str, y, size, page, xEnd: x + item.width };
      else {
        const gap = x - current.xEnd;
        current.text += gap > Math.max(1, size * 0.15) && !/\s$/.test(current.text) && !/^\s/.test(item.str) ? ` ${item.str}` : item.str;
        current.size = Math.max(current.size, size);
        current.xEnd = x + item.width;
      }
    }
    if (item.hasEOL && current) {
      lines.push(current);
      current = null;
    }
  }
  if (current) lines.push(current);
  return lines.filter((l) => l.text.trim().length > 0);
}

/** The font height most of the document's characters are set in: the body text. */
function bodySize(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) weight.set(Math.round(l.size), (weight.get(Math.round(l.size)) ?? 0) + l.text.length);
  return [...weight.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}

/**
 * Paragraphs from lines: a new one starts on a new page, where the vertical gap to the previous
 * line is clearly wider than the line spacing, or where the font height changes. A short
 * paragraph set larger than the body text is a heading; the largest heading size is level 1, the
 * next level 2, and so on (at most 6).
 */
function linesToBlocks(lines: Line[]): BlockDraft[] {
  const paragraphs: Array<{ lines: Line[] }> = [];
  let prev: Line | null = null;
  for (const line of lines) {
    const last = paragraphs[paragraphs.length - 1];
    const sameSize = prev !== null && Math.abs(prev.size - line.size) <= 0.5;
    const gap = prev !== null ? prev.y - line.y : 0;
    if (!last || !prev || prev.page !== line.page || !sameSize || gap <= 0 || gap > line.size * 1.6) paragraphs.push({ lines: [line] });
    else last.lines.push(line);
    prev = line;
  }
  const body = bodySize(lines);
  const isHeading = (p: { lines: Line[] }) => {
    const size = Math.round(p.lines[0]!.size);
    const length = p.lines.reduce((n, l) => n + l.text.length, 0);
    return body > 0 && size >= body * 1.15 && p.lines.length <= 3 && length <= 200;
  };
  const headingSizes = [...new Set(paragraphs.filter(isHeading).map((p) => Math.round(p.lines[0]!.size)))].sort((a, b) => b - a);
  return paragraphs.map((p) => {
    const text = p.lines.map((l) => l.text.trim()).join(" ");
    const page = p.lines[0]!.page;
    if (isHeading(p)) return { kind: "heading" as const, level: Math.min(6, headingSizes.indexOf(Math.round(p.lines[0]!.size)) + 1), text, page };
    return { kind: "paragraph" as const, level: 0, text, page };
  });
}

/** Reads the text layer of every page with pdfjs (legacy build, for Node 20), in the calling thread. */
async function extractPdfBlocks(bytes: Buffer, filename: string, limits: ParseLimits): Promise<BlockDraft[]> {
  // Loaded on first use: only the parsing worker ever needs pdfjs.
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    verbosity: 0, // pdfjs.VerbosityLevel.ERRORS would print; nothing goes to stdout/stderr
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    // The text layer needs no font files: nothing is fetched, no canvas is drawn.
    stopAtErrors: false,
  });
  try {
    let doc: Awaited<typeof task.promise>;
    try {
      doc = await task.promise;
    } catch (error) {
      if ((error as { name?: string }).name === "PasswordException") {
        unusable(filename, "the PDF is encrypted (password-protected); save or print it without a password and upload again", error);
      }
      unusable(filename, `corrupt .pdf file (${conciseReason(error)})`, error);
    }
    if (doc.numPages > limits.maxPdfPages) {
      throw new DocumentLimitError(`${filename}: the PDF has ${doc.numPages} pages, more than max_pdf_pages (${limits.maxPdfPages})`);
    }
    const lines: Line[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const line of pageLines(content.items.filter((i) => "str" in i) as TextItemLike[], n)) lines.push(line);
      page.cleanup();
    }
    if (lines.length === 0) unusable(filename, "no text layer: run OCR first (the PDF's pages hold no text, only images or drawings)");
    return linesToBlocks(lines);
  } catch (error) {
    if (error instanceof ChunkevalError) throw error;
    unusable(filename, `corrupt .pdf file (${conciseReason(error)})`, error);
  } finally {
    await task.destroy();
  }
}

/** PDF: the text layer of each page (pdfjs-dist); every block carries its page number. */
export const pdfFormat: DocumentFormat = {
  name: "pdf",
  extension: ".pdf",
  // "%PDF-" opens the file (after whitespace), or, as readers accept, appears in its first KB
  // after binary junk; text that merely mentions "%PDF-" near its start stays text.
  detect: (bytes) => {
    const at = bytes.subarray(0, HEADER_WINDOW).indexOf(PDF_MAGIC);
    if (at === -1) return false;
    return bytes.subarray(0, at).toString("latin1").trim() === "" || !isUtf8Text(bytes.subarray(0, at));
  },
  async parse(bytes, filename, limits) {
    checkUnpackedStreams(bytes, filename, limits.zip.maxUnpackedBytes);
    return extractPdfBlocks(bytes, filename, limits);
  },
};
