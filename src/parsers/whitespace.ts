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
export const OTHER_WHITESPACE = /[^\S ]/;
/** Two spaces in a row (a separate scan: one alternation of both is slower than two plain scans). */
const TWO_SPACES = / {2}/;
/** A run `\s+` would replace by something else than itself: starting with other white space, or a space and more. */
const RUN_TO_COLLAPSE = /[^\S ]\s*| \s+/g;

/** True for the characters of `\s` (and `String.prototype.trim`): ASCII and Unicode white space and line terminators. */
function isWhitespace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** The mark of a draft whose text is known to be single-line already: a symbol, so no copy, JSON or block carries it. */
const SINGLE_LINE: unique symbol = Symbol("single line");

/**
 * Marks a draft whose parser knows its text is already what {@link collapseWhitespace} would
 * return (no run of white space, nothing at its ends), so that assembleDocument skips the scan.
 * A property rather than a WeakSet: adding to a WeakSet per block cost more than the scan saved.
 */
export function markSingleLine<T extends object>(draft: T): T {
  (draft as { [SINGLE_LINE]?: true })[SINGLE_LINE] = true;
  return draft;
}

export function isMarkedSingleLine(draft: object): boolean {
  return (draft as { [SINGLE_LINE]?: true })[SINGLE_LINE] === true;
}
