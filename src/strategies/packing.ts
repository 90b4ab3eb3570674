import type { Span } from "../text/spans.js";
import { trimSpan, wordPieces } from "../text/spans.js";
import { LONG_PIECE, tokenCountFloor } from "../text/bpe.js";
import { PrefixCounter, type TokenIndex } from "../text/token-index.js";
import type { ChunkDraft } from "./strategy.js";

/**
 * Splits a span that holds no white space (a very long "word", e.g. a URL) into pieces of
 * at most `size` tokens by characters, so that no piece is ever over the limit.
 */
export function splitByCharacters(index: TokenIndex, span: Span, size: number): Span[] {
  const out: Span[] = [];
  // Slices that need more than `size` tokens by a cheap lower bound are refused without
  // counting, so the bisection below counts only slices near the final size.
  const floor = tokenCountFloor(index.text, span);
  // In a long word every bisection counts slices from one start: one merge answers many.
  const long = span.end - span.start >= LONG_PIECE;
  let start = span.start;
  while (start < span.end) {
    // Grow the piece while it still fits; bisecting keeps this O(log n) counts.
    const counter = long ? new PrefixCounter(index, start) : undefined;
    let lo = start + 1;
    let hi = span.end;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (floor(start, mid, size) <= size && (counter ? counter.fits(mid, size) : index.fits(start, mid, size))) lo = mid;
      else hi = mid - 1;
    }
    // The counter merged this piece while bisecting: packing and drafting reuse its count.
    if (counter) index.remember(start, lo, counter.count(lo));
    out.push({ start, end: lo });
    start = lo;
  }
  return out;
}

/** Word pieces of a span, with any piece over `size` tokens cut further by characters. */
export function boundedWordPieces(index: TokenIndex, span: Span, size: number): Span[] {
  const out: Span[] = [];
  for (const piece of wordPieces(index.text, span)) {
    if (index.fits(piece.start, piece.end, size)) out.push(piece);
    else out.push(...splitByCharacters(index, piece, size));
  }
  return out;
}

/**
 * Greedily packs contiguous pieces into chunks of at most `size` tokens, starting each next
 * chunk with the trailing pieces of the previous one worth at most `overlap` tokens (the merge
 * rule of LangChain's text splitters, counted in tokens). Every piece must fit in `size`.
 * Returns trimmed spans; the exact token count of each chunk is checked, not estimated.
 */
export function packPieces(index: TokenIndex, pieces: Span[], size: number, overlap: number): Span[] {
  const text = index.text;
  const spans: Span[] = [];
  const tokensOf = pieces.map((p) => index.count(p.start, p.end));
  let first = 0;
  while (first < pieces.length) {
    let last = first;
    let total = tokensOf[first]!;
    while (last + 1 < pieces.length && total + tokensOf[last + 1]! <= size) {
      last++;
      total += tokensOf[last]!;
    }
    // Piece counts are summed; BPE merges across a boundary can differ slightly, so verify.
    let span = trimSpan(text, { start: pieces[first]!.start, end: pieces[last]!.end });
    while (last > first && !index.fits(span.start, span.end, size)) {
      last--;
      span = trimSpan(text, { start: pieces[first]!.start, end: pieces[last]!.end });
    }
    if (span.end > span.start) spans.push(span);
    if (last + 1 >= pieces.length) break;
    let next = last + 1;
    let carried = 0;
    while (next - 1 > first && carried + tokensOf[next - 1]! <= overlap && carried + tokensOf[next - 1]! + tokensOf[last + 1]! <= size) {
      next--;
      carried += tokensOf[next]!;
    }
    first = next;
  }
  return spans;
}

/** Turns spans into chunk drafts, counting each chunk's tokens exactly. */
export function spansToDrafts(index: TokenIndex, spans: Span[], extra: Partial<ChunkDraft> = {}): ChunkDraft[] {
  return spans.map((span) => ({
    text: index.text.slice(span.start, span.end),
    start: span.start,
    end: span.end,
    tokenCount: index.count(span.start, span.end),
    role: "chunk",
    parentIndex: null,
    context: null,
    ...extra,
  }));
}
