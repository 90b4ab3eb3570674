import type { BlockDraft } from "./format.js";

/**
 * `text.replace(/\s+/g, " ").trim()`, the single-line form of a block's text, without its cost
 * when there is nothing to change. `\s+` matches every single space between words, so the
 * replace rebuilds the whole string even when it returns it unchanged; most block texts already
 * are single lines, and two regex scans that match nothing in them cost a fraction of that.
 */
export function collapseWhitespace(text: string): string {
  const n = text.length;
  if (n > 0 && !isWhitespace(text.charCodeAt(0)) && !isWhitespace(text.charCodeAt(n - 1)) && !OTHER_WHITESPACE.test(text) && !TWO_SPACES.test(text)) {
    return text;
  }
  // Only the runs that change are matched (not the single spaces), each replaced by one space.
  return text.replace(RUN_TO_COLLAPSE, " ").trim();
}

/** Any white space `\s` matches except the space: a tab, a line break, a no-break space... */
const OTHER_WHITESPACE = /[^\S ]/;
/** Two spaces in a row (a separate scan: one alternation of both is slower than two plain scans). */
const TWO_SPACES = / {2}/;
/** A run `\s+` would replace by something else than itself: starting with other white space, or a space and more. */
const RUN_TO_COLLAPSE = /[^\S ]\s*| \s+/g;

/** True for the characters of `\s` (and `String.prototype.trim`): ASCII and Unicode white space and line terminators. */
export function isWhitespace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/**
 * A draft whose parser knows its text is already what {@link collapseWhitespace} would return (no
 * run of white space, nothing at its ends), so that assembleDocument skips the scan. A class
 * rather than a mark added to the draft: adding a property to an object literal (or an entry to a
 * WeakSet) per block cost a good part of the scan it saves.
 */
export class SingleLineDraft implements BlockDraft {
  kind: BlockDraft["kind"];
  level: number;
  text: string;
  constructor(kind: BlockDraft["kind"], level: number, text: string) {
    this.kind = kind;
    this.level = level;
    this.text = text;
  }
}
