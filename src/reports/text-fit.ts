/**
 * Fitting chart text into a width without a layout engine: the SVG charts are drawn on the
 * server, so a label's width is estimated from its characters. The estimate is an upper bound
 * for the usual sans-serif fonts: the per-character widths are DejaVu Sans's (Debian's default,
 * among the widest), rounded up by class, so a label given room for its estimate never spills.
 */

const NARROW = new Set(".,:;'|!ijl");
const SEMI = new Set("frt -()[]/\\");
const WIDE = new Set("mw@=%&+<>~—…MW");

/** Estimated advance width of `text` in user units at `fontSize`, bold text a tenth wider. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const ch of text) em += NARROW.has(ch) ? 0.34 : SEMI.has(ch) ? 0.46 : WIDE.has(ch) ? 1.0 : /[a-z]/.test(ch) ? 0.64 : 0.8;
  return em * fontSize * (bold ? 1.1 : 1) + 2;
}

/** `text` cut with an ellipsis so that it fits `maxWidth` (unchanged when it fits). */
export function shortenToWidth(text: string, maxWidth: number, fontSize: number, bold = false): string {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 1 && textWidth(chars.join("") + "…", fontSize, bold) > maxWidth) chars.pop();
  return chars.join("") + "…";
}

/**
 * Greedy line breaking: `text` split into lines no wider than `maxWidth`, breaking after a space
 * or after a variant key's "@", ":" or "," (so `recursive@chunk_size=128:chunk_overlap=0` breaks
 * between its parameters); a piece wider than a whole line breaks after its "_" (a long parameter,
 * `breakpoint_percentile=80:`), a part still wider after its "=", and one wider yet between characters.
 */
export function wrapLines(text: string, maxWidth: number, fontSize: number, bold = false): string[] {
  const fits = (s: string) => textWidth(s.trimEnd(), fontSize, bold) <= maxWidth;
  const split = (s: string, separators: RegExp) => s.match(separators)!.filter((p) => p.length > 0);
  const lines: string[] = [];
  let line = "";
  const add = (piece: string, finer: Array<(s: string) => string[]>) => {
    if (fits(line + piece)) {
      line += piece;
      return;
    }
    if (line) lines.push(line.trimEnd());
    line = "";
    if (fits(piece) || finer.length === 0) line = piece;
    else for (const part of finer[0]!(piece)) add(part, finer.slice(1));
  };
  const levels = [(s: string) => split(s, /[^_]*(?:_+|$)/g), (s: string) => split(s, /[^=]*(?:=+|$)/g), (s: string) => [...s]];
  for (const piece of split(text, /[^ @:,]*(?:[ @:,]+|$)/g)) add(piece, levels);
  if (line.trim() || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}
