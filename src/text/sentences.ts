import type { Span } from "./spans.js";
import { trimSpan } from "./spans.js";

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/**
 * Sentence spans inside a span of `text`, trimmed, empty ones dropped. Uses the ICU sentence
 * rules built into Node (Intl.Segmenter), which know abbreviations and decimals; line breaks
 * always end a sentence because blocks (headings, list items, table rows) are separate lines.
 */
export function sentenceSpans(text: string, span: Span = { start: 0, end: text.length }): Span[] {
  const out: Span[] = [];
  const region = text.slice(span.start, span.end);
  let lineStart = 0;
  for (const line of region.split("\n")) {
    for (const seg of segmenter.segment(line)) {
      const start = span.start + lineStart + seg.index;
      const trimmed = trimSpan(text, { start, end: start + seg.segment.length });
      if (trimmed.end > trimmed.start) out.push(trimmed);
    }
    lineStart += line.length + 1;
  }
  return out;
}
