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

/** Graphics-state nesting (`q` without `Q`) one content stream may reach; PDF 1.7 Annex C asks readers for 28. */
const MAX_GRAPHICS_STATE_DEPTH = 256;

/** Thrown by a decoder whose output would pass what is left of the budget. */
class OverBudget extends Error {}

/** A decoder's output: copied into 1 MB blocks, refused past `cap` bytes. */
class ByteSink {
  private blocks: Buffer[] = [];
  private block = Buffer.allocUnsafe(MB);
  private used = 0;
  total = 0;
  constructor(private readonly cap: number) {}
  push(bytes: Uint8Array): void {
    this.total += bytes.length;
    if (this.total > this.cap) throw new OverBudget();
    let from = 0;
    while (from < bytes.length) {
      const n = Math.min(bytes.length - from, this.block.length - this.used);
      this.block.set(bytes.subarray(from, from + n), this.used);
      this.used += n;
      from += n;
      if (this.used === this.block.length) {
        this.blocks.push(this.block);
        this.block = Buffer.allocUnsafe(MB);
        this.used = 0;
      }
    }
  }
  result(): Buffer {
    return Buffer.concat([...this.blocks, this.block.subarray(0, this.used)]);
  }
}

function asciiHexDecode(data: Buffer): Buffer {
  const hex = data
    .toString("latin1")
    .replace(/>[\s\S]*$/, "")
    .replace(/[^0-9a-fA-F]/g, "");
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex");
}

function ascii85Decode(data: Buffer, cap: number): Buffer {
  const text = data
    .toString("latin1")
    .replace(/^\s*<~/, "")
    .replace(/~>[\s\S]*$/, "")
    .replace(/\s+/g, "");
  const out = new ByteSink(cap);
  const word = Buffer.alloc(4);
  let group: number[] = [];
  const flush = (n: number) => {
    while (group.length < 5) group.push(84);
    let value = 0;
    for (const c of group) value = value * 85 + c;
    word.writeUInt32BE(value % 2 ** 32);
    out.push(word.subarray(0, n));
    group = [];
  };
  for (const ch of text) {
    if (ch === "z" && group.length === 0) out.push(new Uint8Array(4));
    else if (ch >= "!" && ch <= "u") {
      group.push(ch.charCodeAt(0) - 33);
      if (group.length === 5) flush(4);
    }
  }
  if (group.length > 1) flush(group.length - 1);
  return out.result();
}

/** LZWDecode with EarlyChange 1 (the default), refused once the output would pass `cap`. */
function lzwDecode(data: Buffer, cap: number): Buffer {
  const out = new ByteSink(cap);
  let table: Buffer[] = [];
  const reset = () => {
    table = Array.from({ length: 258 }, (_, i) => Buffer.from([i]));
  };
  reset();
  let bits = 9;
  let buffer = 0;
  let held = 0;
  let previous: Buffer | null = null;
  for (const byte of data) {
    buffer = ((buffer << 8) | byte) & 0xffffff;
    held += 8;
    while (held >= bits) {
      const code = (buffer >>> (held - bits)) & ((1 << bits) - 1);
      held -= bits;
      if (code === 256) {
        reset();
        bits = 9;
        previous = null;
        continue;
      }
      if (code === 257) return out.result();
      let entry = table[code];
      if (!entry && previous && code === table.length) entry = Buffer.concat([previous, previous.subarray(0, 1)]);
      if (!entry) return out.result(); // corrupt: readers stop here
      out.push(entry);
      if (previous && table.length < 4096) table.push(Buffer.concat([previous, entry.subarray(0, 1)]));
      previous = entry;
      if (table.length + 1 >= 1 << bits && bits < 12) bits++;
    }
  }
  return out.result();
}

function runLengthDecode(data: Buffer, cap: number): Buffer {
  const out = new ByteSink(cap);
  for (let i = 0; i < data.length;) {
    const n = data[i]!;
    if (n === 128) break;
    if (n < 128) {
      out.push(data.subarray(i + 1, i + 2 + n));
      i += n + 2;
    } else {
      out.push(Buffer.alloc(257 - n, data[i + 1] ?? 0));
      i += 2;
    }
  }
  return out.result();
}

/** The filter names of a stream dictionary, in decoding order ([] when it has none). */
function filtersOf(dict: string): string[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(dict);
  return m ? [...m[1]!.matchAll(/\/([^\s/[\]<>()]+)/g)].map((f) => f[1]!) : [];
}

/**
 * Decodes a stream through its filters with the output capped at `cap` (OverBudget past it);
 * null when a filter is one whose data is an image (DCT, JPX, CCITT, JBIG2) or is unknown: there
 * the chain stops, and what it decoded so far is what counted.
 */
function decodeCapped(data: Buffer, filters: string[], cap: number): { data: Buffer; complete: boolean } {
  for (const filter of filters) {
    switch (filter) {
      case "FlateDecode":
      case "Fl":
        if (data.length < 2) return { data, complete: false };
        try {
          // Raw inflate past the 2-byte zlib header: no checksum to trip over, and a truncated
          // stream yields what it holds, as pdfjs reads it.
          data = inflateRawSync(data.subarray(2), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: cap + 1 });
        } catch (error) {
          if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new OverBudget();
          return { data, complete: false }; // corrupt data: pdfjs stops reading it too
        }
        break;
      case "ASCIIHexDecode":
      case "AHx":
        data = asciiHexDecode(data);
        break;
      case "ASCII85Decode":
      case "A85":
        data = ascii85Decode(data, cap);
        break;
      case "LZWDecode":
      case "LZW":
        data = lzwDecode(data, cap);
        break;
      case "RunLengthDecode":
      case "RL":
        data = runLengthDecode(data, cap);
        break;
      default:
        return { data, complete: false };
    }
    if (data.length > cap) throw new OverBudget();
  }
  return { data, complete: true };
}

/** The deepest `q` nesting of a content stream (tokens, not bytes inside words). */
function graphicsStateDepth(data: Buffer): number {
  let depth = 0;
  let deepest = 0;
  const text = data.toString("latin1");
  const re = /(?:^|[\s\]\[)>}])([qQ])(?=[\s\[\]\(<\/%{]|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[1] === "q") deepest = Math.max(deepest, ++depth);
    else depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/**
 * Checks, before pdfjs reads anything, the two costs of a PDF's streams it cannot bound itself.
 * Size: every stream is decoded through its filters (Flate, LZW, RunLength, ASCIIHex, ASCII85;
 * image codecs end the chain) with the output capped at what is left of `max_unpacked_mb`, so a
 * 300 KB file inflating to gigabytes (the object-stream bomb) is refused at the cost of the budget
 * itself; pdfjs decodes into typed arrays, which a worker's heap limit does not bound. Nesting: a
 * content stream of 100,000 `q` operators (a 200 KB file) costs pdfjs minutes of CPU (each saved
 * state is a prototype-chained clone of the last, so lookups grow with depth); one past
 * MAX_GRAPHICS_STATE_DEPTH is refused. Streams are found as pdfjs finds them: the `stream`
 * keyword after the object's dictionary, the data's /Length when it is right (direct, or an
 * indirect number object), else up to the next `endstream`; a /Filter given by reference is
 * resolved. Every scan moves forward, so the check is linear in the file.
 */
function checkStreams(bytes: Buffer, filename: string, maxUnpackedBytes: number): void {
  const text = bytes.toString("latin1");
  let budget = maxUnpackedBytes;
  const indirectObject = objectIndex(text);
  const streamRe = /stream(\r\n|\n|\r)/g;
  let previousEnd = 0;
  let m: RegExpExecArray | null;
  while ((m = streamRe.exec(text)) !== null) {
    if (text.startsWith("end", m.index - 3)) continue;
    const before = text.slice(previousEnd, m.index);
    const objAt = before.lastIndexOf("obj");
    let dict = unescapeNames(objAt === -1 ? before : before.slice(objAt));
    const filterRef = /\/Filter\s+(\d+)\s+(\d+)\s+R/.exec(dict);
    if (filterRef) dict = dict.replace(filterRef[0], `/Filter ${unescapeNames(indirectObject(filterRef[1]!, filterRef[2]!)).trim()}`);
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
    const filters = filtersOf(dict);
    let decoded: { data: Buffer; complete: boolean };
    try {
      decoded = decodeCapped(bytes.subarray(dataStart, dataEnd), filters, budget);
    } catch (error) {
      if (!(error instanceof OverBudget)) throw error;
      throw new DocumentLimitError(`${filename}: the PDF's compressed streams unpack to more than max_unpacked_mb (${maxUnpackedBytes / MB} MB)`);
    }
    if (filters.length > 0) budget -= decoded.data.length;
    if (decoded.complete && graphicsStateDepth(decoded.data) > MAX_GRAPHICS_STATE_DEPTH) {
      unusable(
        filename,
        `a content stream nests graphics states (q operators) more than ${MAX_GRAPHICS_STATE_DEPTH} deep, which no real document does; refused`,
      );
    }
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
    checkStreams(bytes, filename, limits.zip.maxUnpackedBytes);
    return extractPdfBlocks(bytes, filename, limits);
  },
};
