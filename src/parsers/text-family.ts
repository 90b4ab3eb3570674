import { isUtf8 } from "node:buffer";

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * True when the bytes are text chunkeval reads: valid UTF-8 with no NUL byte (binary files and
 * UTF-16 have NULs; Latin-1 and other legacy encodings are rarely valid UTF-8). Every text format
 * (HTML, Markdown, plain text) starts from this check; a file that fails it and has no binary
 * signature is refused as "not UTF-8 text?".
 */
export function isUtf8Text(bytes: Buffer): boolean {
  return bytes.indexOf(0) === -1 && isUtf8(bytes);
}

/** The text of UTF-8 bytes without a byte-order mark, line endings as \n. */
export function decodeUtf8(bytes: Buffer): string {
  const body = bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
  const text = body.toString("utf8");
  // Looking for a CR byte is a memchr; the regex would scan the whole text to replace nothing.
  return body.indexOf(0x0d) === -1 ? text : text.replace(/\r\n?/g, "\n");
}

/** The lower-cased extension of a file name, with its dot ("" when none). */
export function extensionOf(filename: string): string {
  const m = /\.[^./\\]+$/.exec(filename);
  return m ? m[0].toLowerCase() : "";
}
