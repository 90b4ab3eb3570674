import { isAscii, isUtf8 } from "node:buffer";
import { startsWithBytes } from "./format.js";

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Control characters other than tab, line feed, form feed and carriage return, per byte of text, that text may hold. */
export const MAX_CONTROL_SHARE = 0.01;
/** 1 for those control characters, by byte: all below 0x20 but tab, line feed, form feed and carriage return, and DEL. */
const IS_CONTROL = Uint8Array.from({ length: 256 }, (_, b) => ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f ? 1 : 0));

/**
 * True when the bytes are text chunkeval reads: valid UTF-8 with no NUL byte (binary files and
 * UTF-16 have NULs; Latin-1 and other legacy encodings are rarely valid UTF-8) and hardly any
 * other control characters (binary data that happens to be valid UTF-8 is full of them). Every
 * text format (HTML, Markdown, plain text) starts from this check; a file that fails it and has
 * no binary signature is refused as "not UTF-8 text?".
 */
export function isUtf8Text(bytes: Buffer): boolean {
  return isUtf8WithoutNul(bytes) && (withinControlShare(bytes) || mostlyCleanPages(bytes));
}

const withinControlShare = (bytes: Uint8Array) => countControls(bytes) <= bytes.length * MAX_CONTROL_SHARE;

/**
 * A text in pages (form feeds between them, as pdftotext writes a PDF's pages) whose control
 * characters sit in a few of its pages: the pages within the share hold most of its bytes. It is
 * read as text, and the readability check leaves the bad pages out with a warning naming them
 * (parsers/readability.ts), or refuses the document naming them when they are too many. Binary
 * data has a form feed byte every few hundred bytes, and control characters in each piece.
 */
function mostlyCleanPages(bytes: Buffer): boolean {
  let clean = 0;
  for (let start = 0; start <= bytes.length;) {
    const feed = bytes.indexOf(0x0c, start);
    const end = feed === -1 ? bytes.length : feed;
    if (withinControlShare(bytes.subarray(start, end))) clean += end - start;
    if (feed === -1) break;
    start = feed + 1;
  }
  return clean >= bytes.length / 2;
}

/**
 * The control characters of {@link IS_CONTROL} in the bytes. Four bytes are tested at a time (a
 * 32-bit word, read in place where the buffer is aligned): two bit tricks tell whether any of the
 * four is below 0x20 or is 0x7f, and only such words (a line feed every few dozen bytes of text)
 * are counted byte by byte with the table. Twice as fast as the indexed loop over every byte,
 * itself several times faster than a regex or iterating the Buffer.
 */
export function countControls(bytes: Uint8Array): number {
  const n = bytes.length;
  let controls = 0;
  let i = 0;
  for (const head = Math.min(n, (4 - (bytes.byteOffset % 4)) % 4); i < head; i++) controls += IS_CONTROL[bytes[i]!]!;
  // Past the head, i is aligned whenever a whole word is left.
  const words = n - i >= 4 ? new Uint32Array(bytes.buffer, bytes.byteOffset + i, (n - i) >>> 2) : NO_WORDS;
  for (let w = 0; w < words.length; w++) {
    const x = words[w]!;
    const y = x ^ 0x7f7f7f7f; // a byte 0x7f of x is 0 in y
    // The classic "has a byte less than n" test, (x - n per byte) & ~x & 0x80 per byte, exact as
    // to whether a word has one for n <= 0x80: below 0x20 in x, below 1 (zero) in y. It may point
    // at the wrong byte, which is why a word it flags is counted byte by byte.
    if ((((x - 0x20202020) & ~x) | ((y - 0x01010101) & ~y)) & 0x80808080) {
      const b = i + 4 * w;
      controls += IS_CONTROL[bytes[b]!]! + IS_CONTROL[bytes[b + 1]!]! + IS_CONTROL[bytes[b + 2]!]! + IS_CONTROL[bytes[b + 3]!]!;
    }
  }
  for (i += 4 * words.length; i < n; i++) controls += IS_CONTROL[bytes[i]!]!;
  return controls;
}
const NO_WORDS = new Uint32Array(0);

/**
 * Valid UTF-8 without a NUL byte: what a format with a signature of its own in the text (HTML's
 * doctype or root tag) needs. The control-character count of {@link isUtf8Text} tells binary
 * data from text where nothing else does (plain text, Markdown by its name); after a signature it
 * would only cost a pass over every byte (a tenth of our time over the HTML library's).
 */
export function isUtf8WithoutNul(bytes: Buffer): boolean {
  return bytes.indexOf(0) === -1 && isUtf8(bytes);
}

/** The text of UTF-8 bytes without a byte-order mark, line endings as \n. */
export function decodeUtf8(bytes: Buffer): string {
  const body = startsWithBytes(bytes, UTF8_BOM) ? bytes.subarray(3) : bytes;
  const text = body.toString("utf8");
  // Looking for a CR byte is a memchr; the regex would scan the whole text to replace nothing.
  return body.indexOf(0x0d) === -1 ? text : text.replace(/\r\n?/g, "\n");
}

/** The lower-cased extension of a file name, with its dot ("" when none). */
export function extensionOf(filename: string): string {
  const m = /\.[^./\\]+$/.exec(filename);
  return m ? m[0].toLowerCase() : "";
}

/**
 * True when the file holds no white space but spaces, tabs, line feeds and carriage returns (which
 * decoding turns into line feeds), and never two spaces in a row: any slice of its text without a
 * tab or line feed (two native character searches) is then a single line, which lets a parser skip
 * the white-space scan of its blocks. ASCII only (no-break and other Unicode spaces are multi-byte).
 */
export function singleSpacedSource(bytes: Buffer): boolean {
  return isAscii(bytes) && bytes.indexOf(0x0b) === -1 && bytes.indexOf(0x0c) === -1 && !hasTwoSpaces(bytes);
}

/**
 * Two spaces in a row, found by reading byte pairs as 16-bit units (0x2020 is two spaces either
 * way round): TypedArray indexOf is a native scan, several times faster than a regex or a string
 * search for "  ", whose first character recurs every few bytes. Pairs at even offsets are read in
 * place (when the buffer's offset allows a 16-bit view), the others through a small reused copy.
 */
function hasTwoSpaces(bytes: Buffer): boolean {
  const aligned = bytes.byteOffset % 2 === 0;
  if (aligned && new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 1).indexOf(0x2020) !== -1) return true;
  for (let first = aligned ? 1 : 0; first < 2; first++) {
    for (let from = first; from + 1 < bytes.length; from += PAIR_SCRATCH.length) {
      const copied = bytes.copy(PAIR_SCRATCH, 0, from, Math.min(bytes.length, from + PAIR_SCRATCH.length));
      if (new Uint16Array(PAIR_SCRATCH.buffer, PAIR_SCRATCH.byteOffset, copied >>> 1).indexOf(0x2020) !== -1) return true;
    }
  }
  return false;
}
/** Even-sized, so that pairs stay pairs from one copy to the next; at offset 0 of its own memory. */
const PAIR_SCRATCH = Buffer.allocUnsafeSlow(64 * 1024);
