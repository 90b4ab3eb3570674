import type { Block } from "./types.js";

/** Where a page's blocks lie in the extracted text (PDF documents; other formats have no pages). */
export interface PageSpan {
  start: number;
  end: number;
  page: number;
}

/** The page spans of a document's blocks, in text order (empty when the format has no pages). */
export function pageSpans(blocks: ReadonlyArray<Pick<Block, "start" | "end" | "page">>): PageSpan[] {
  return blocks.flatMap((b) => (b.page !== undefined ? [{ start: b.start, end: b.end, page: b.page }] : [])).sort((a, b) => a.start - b.start);
}

/** The first and last page of the blocks a span of text overlaps; null when it overlaps none. */
export function pageRange(spans: readonly PageSpan[], start: number, end: number): { first: number; last: number } | null {
  // The first block that ends after the span starts (blocks are in text order and do not overlap).
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  let first = Infinity;
  let last = -Infinity;
  for (let i = lo; i < spans.length && (spans[i]!.start < end || (start === end && spans[i]!.start <= end)); i++) {
    first = Math.min(first, spans[i]!.page);
    last = Math.max(last, spans[i]!.page);
  }
  return first === Infinity ? null : { first, last };
}

/** "p. 3" or "pp. 3–4" for a span of a paged document; "" when there is no page to say. */
export function pageLabel(spans: readonly PageSpan[], start: number, end: number): string {
  const range = spans.length > 0 ? pageRange(spans, start, end) : null;
  if (!range) return "";
  return range.first === range.last ? `p. ${range.first}` : `pp. ${range.first}–${range.last}`;
}
