import type { Span } from "../text/spans.js";
import { sentenceSpans } from "../text/sentences.js";
import { TokenIndex } from "../text/token-index.js";
import { boundedWordPieces, packPieces, spansToDrafts } from "./packing.js";
import { checkSizeAndOverlap, resolveOptions } from "./options.js";
import type { ChunkingStrategy, StrategyDefinition, StrategyParameter } from "./strategy.js";

export const recursiveParameters: StrategyParameter[] = [
  { name: "chunk_size", description: "largest chunk, in tokens", default: 256 },
  { name: "chunk_overlap", description: "tokens of the previous chunk repeated at the start of the next", default: 32 },
];

/** Cuts a span at the given boundary offsets into contiguous parts covering it. */
function cutAt(span: Span, boundaries: number[]): Span[] {
  const cuts = [span.start, ...boundaries.filter((b) => b > span.start && b < span.end), span.end];
  const parts: Span[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) parts.push({ start: cuts[i]!, end: cuts[i + 1]! });
  return parts;
}

function boundariesOf(text: string, span: Span, separator: string): number[] {
  const out: number[] = [];
  let at = text.indexOf(separator, span.start);
  while (at !== -1 && at < span.end) {
    out.push(at);
    at = text.indexOf(separator, at + separator.length);
  }
  return out;
}

/** Separator levels from coarse to fine: paragraph, line, sentence; words come last. */
const LEVELS: Array<(text: string, span: Span) => Span[]> = [
  (text, span) => cutAt(span, boundariesOf(text, span, "\n\n")),
  (text, span) => cutAt(span, boundariesOf(text, span, "\n")),
  (text, span) =>
    cutAt(
      span,
      sentenceSpans(text, span).map((s) => s.start),
    ),
];

/**
 * Splits a span into pieces of at most `size` tokens, trying each separator level in turn
 * and descending only into pieces that are still too large (RecursiveCharacterTextSplitter).
 */
export function splitRecursively(index: TokenIndex, span: Span, size: number, level = 0): Span[] {
  if (index.fits(span.start, span.end, size)) return [span];
  if (level >= LEVELS.length) return boundedWordPieces(index, span, size);
  const parts = LEVELS[level]!(index.text, span);
  if (parts.length <= 1) return splitRecursively(index, span, size, level + 1);
  return parts.flatMap((part) => splitRecursively(index, part, size, level + 1));
}

/** Recursive chunk spans of a tokenised text; shared with contextual retrieval. */
export function recursiveSpans(index: TokenIndex, size: number, overlap: number): Span[] {
  const pieces = splitRecursively(index, { start: 0, end: index.text.length }, size);
  return packPieces(index, pieces, size, overlap);
}

export const recursiveStrategy: StrategyDefinition = {
  name: "recursive",
  description:
    "Splits on paragraphs, then lines, sentences and words, packing pieces up to chunk_size tokens with overlap (LangChain's recursive splitter, in tokens).",
  parameters: recursiveParameters,
  sizing: { target: "chunk_size", overlap: "chunk_overlap" },
  async create(given) {
    const options = resolveOptions("recursive", recursiveParameters, given);
    checkSizeAndOverlap("recursive", options.chunk_size!, options.chunk_overlap!);
    const strategy: ChunkingStrategy = {
      name: "recursive",
      retrieval: "dense",
      options,
      async chunk({ document }) {
        const index = new TokenIndex(document.text);
        return spansToDrafts(index, recursiveSpans(index, options.chunk_size!, options.chunk_overlap!));
      },
    };
    return strategy;
  },
};
