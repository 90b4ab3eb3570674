/** A half-open character range [start, end) of a document's extracted text. */
export interface Span {
  start: number;
  end: number;
}

/** Narrows a span so it neither starts nor ends with white space (an empty span stays empty). */
export function trimSpan(text: string, span: Span): Span {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

/**
 * Splits a span into word pieces: each piece is a run of non-space characters together with
 * the white space before it, which is how GPT tokenizers pre-split text, so summing the token
 * counts of pieces matches counting the joined text. Offsets are absolute.
 */
export function wordPieces(text: string, span: Span): Span[] {
  const pieces: Span[] = [];
  const re = /\s*\S+/gy;
  re.lastIndex = span.start;
  const slice = text.slice(0, span.end);
  let match: RegExpExecArray | null;
  while ((match = re.exec(slice)) !== null) {
    pieces.push({ start: match.index, end: match.index + match[0].length });
  }
  return pieces;
}
