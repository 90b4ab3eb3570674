import type { Span } from "../text/spans.js";
import { trimSpan, wordPieces } from "../text/spans.js";
import { countTokens } from "../text/tokens.js";
import type { ChunkDraft } from "./strategy.js";

export type TokenCounter = (text: string) => number;

/**
 * Splits a span that holds no white space (a very long "word", e.g. a URL) into pieces of
 * at most `size` tokens by characters, so that no piece is ever over the limit.
 */
export function splitByCharacters(text: string, span: Span, size: number, count: TokenCounter): Span[] {
  const out: Span[] = [];
  let start = span.start;
  while (start < span.end) {
    // Grow the piece while it still fits; doubling then bisecting keeps this O(log n) counts.
    let lo = start + 1;
    let hi = span.end;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (count(text.slice(start, mid)) <= size) lo = mid;
      else hi = mid - 1;
    }
    out.push({ start, end: lo });
    start = lo;
  }
  return out;
}

/** Word pieces of a span, with any piece over `size` tokens cut further by characters. */
export function boundedWordPieces(text: string, span: Span, size: number, count: TokenCounter): Span[] {
  const out: Span[] = [];
  for (const piece of wordPieces(text, span)) {
    if (count(text.slice(piece.start, piece.end)) <= size) out.push(piece);
    else out.push(...splitByCharacters(text, piece, size, count));
  }
  return out;
}

/**
 * Greedily packs contiguous pieces into chunks of at most `size` tokens, starting each next
 * chunk with the trailing pieces of the previous one worth at most `overlap` tokens (the merge
 * rule of LangChain's text splitters, counted in tokens). Every piece must fit in `size`.
 * Returns trimmed spans; the exact token count of each chunk is checked, not estimated.
 */
export function packPieces(text: string, pieces: Span[], size: number, overlap: number, count: TokenCounter): Span[] {
  const spans: Span[] = [];
  const tokensOf = pieces.map((p) => count(text.slice(p.start, p.end)));
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
    while (last > first && countTokens(text.slice(span.start, span.end)) > size) {
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
export function spansToDrafts(text: string, spans: Span[], extra: Partial<ChunkDraft> = {}): ChunkDraft[] {
  return spans.map((span) => {
    const chunkText = text.slice(span.start, span.end);
    return {
      text: chunkText,
      start: span.start,
      end: span.end,
      tokenCount: countTokens(chunkText),
      role: "chunk",
      parentIndex: null,
      context: null,
      ...extra,
    };
  });
}
