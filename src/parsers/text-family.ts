import { isUtf8 } from "node:buffer";

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Control characters other than tab, line feed, form feed and carriage return, per byte of text, that text may hold. */
const MAX_CONTROL_SHARE = 0.01;

/**
 * True when the bytes are text chunkeval reads: valid UTF-8 with no NUL byte (binary files and
 * UTF-16 have NULs; Latin-1 and other legacy encodings are rarely valid UTF-8) and hardly any
 * other control characters (binary data that happens to be valid UTF-8 is full of them). Every
 * text format (HTML, Markdown, plain text) starts from this check; a file that fails it and has
 * no binary signature is refused as "not UTF-8 text?".
 */
export function isUtf8Text(bytes: Buffer): boolean {
  if (bytes.indexOf(0) !== -1 || !isUtf8(bytes)) return false;
  let controls = 0;
  for (const b of bytes) if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f) controls++;
  return controls <= bytes.length * MAX_CONTROL_SHARE;
}

/** The text of UTF-8 bytes without a byte-order mark, line endings as \n. */
export function decodeUtf8(bytes: Buffer): string {
  const body = bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
  return body.toString("utf8").replace(/\r\n?/g, "\n");
}

/** The lower-cased extension of a file name, with its dot ("" when none). */
export function extensionOf(filename: string): string {
  const m = /\.[^./\\]+$/.exec(filename);
  return m ? m[0].toLowerCase() : "";
}
