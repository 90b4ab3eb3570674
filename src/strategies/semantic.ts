import { ValidationError } from "../errors.js";
import { meanVector, cosine, percentile } from "../domain/vectors.js";
import type { Span } from "../text/spans.js";
import { sentenceSpans } from "../text/sentences.js";
import { createPieceCounter } from "../text/tokens.js";
import { boundedWordPieces, packPieces, spansToDrafts } from "./packing.js";
import { resolveOptions } from "./options.js";
import type { ChunkingContext, ChunkingStrategy, StrategyDefinition, StrategyParameter } from "./strategy.js";

export const semanticParameters: StrategyParameter[] = [
  { name: "buffer_size", description: "sentences on each side combined into a sentence's window", default: 1 },
  { name: "breakpoint_percentile", description: "cut where the window distance is above this percentile (0-100)", default: 90 },
  { name: "min_tokens", description: "smallest chunk; smaller groups merge with a neighbour", default: 64 },
  { name: "max_tokens", description: "largest chunk; larger groups are packed by sentence", default: 512 },
];

export function checkSemanticOptions(strategy: string, o: Record<string, number>): void {
  if (!Number.isInteger(o.buffer_size) || o.buffer_size! < 0) throw new ValidationError(`${strategy}: buffer_size must be a whole number >= 0`);
  if (!(o.breakpoint_percentile! > 0 && o.breakpoint_percentile! < 100)) {
    throw new ValidationError(`${strategy}: breakpoint_percentile must be between 0 and 100`);
  }
  if (!Number.isInteger(o.max_tokens) || o.max_tokens! <= 0) throw new ValidationError(`${strategy}: max_tokens must be a whole number > 0`);
  if (!Number.isInteger(o.min_tokens) || o.min_tokens! < 0 || o.min_tokens! > o.max_tokens!) {
    throw new ValidationError(`${strategy}: min_tokens must be a whole number with 0 <= min_tokens <= max_tokens`);
  }
}

/**
 * Kamradt's semantic chunking: embed every sentence, describe sentence i by the mean of the
 * embeddings of sentences i-b..i+b (one embedding per sentence instead of one per window, so
 * the document is embedded once and the windows cost nothing), and cut between i and i+1 where
 * the cosine distance of their windows is above the given percentile of all distances.
 * Groups under min_tokens merge with the following one; groups over max_tokens are packed
 * sentence by sentence.
 */
export async function semanticSpans(context: ChunkingContext, o: Record<string, number>): Promise<Span[]> {
  const text = context.document.text;
  const sentences = sentenceSpans(text);
  if (sentences.length === 0) return [];
  const embeddings = await context.embed(sentences.map((s) => text.slice(s.start, s.end)), context.signal);
  const b = o.buffer_size!;
  const windows = embeddings.map((_, i) => meanVector(embeddings.slice(Math.max(0, i - b), i + b + 1)));
  const distances = windows.slice(0, -1).map((w, i) => 1 - cosine(w, windows[i + 1]!));
  const threshold = percentile(distances, o.breakpoint_percentile!);

  const groups: Span[] = [];
  let groupStart = 0;
  for (let i = 0; i < sentences.length; i++) {
    if (i === sentences.length - 1 || distances[i]! > threshold) {
      groups.push({ start: sentences[groupStart]!.start, end: sentences[i]!.end });
      groupStart = i + 1;
    }
  }

  const count = createPieceCounter();
  const tokens = (s: Span) => count(text.slice(s.start, s.end));
  const merged: Span[] = [];
  for (const group of groups) {
    const previous = merged[merged.length - 1];
    if (previous && tokens(previous) < o.min_tokens! && tokens({ start: previous.start, end: group.end }) <= o.max_tokens!) {
      previous.end = group.end;
    } else {
      merged.push({ ...group });
    }
  }
  const last = merged[merged.length - 1]!;
  const beforeLast = merged[merged.length - 2];
  if (beforeLast && tokens(last) < o.min_tokens! && tokens({ start: beforeLast.start, end: last.end }) <= o.max_tokens!) {
    beforeLast.end = last.end;
    merged.pop();
  }

  return merged.flatMap((group) => {
    if (tokens(group) <= o.max_tokens!) return [group];
    const pieces = sentenceSpans(text, group).flatMap((s, i, all) => {
      // Pieces must cover the group contiguously, so each sentence takes the gap before it.
      const span = { start: i === 0 ? group.start : all[i - 1]!.end, end: s.end };
      return tokens(span) <= o.max_tokens! ? [span] : boundedWordPieces(text, span, o.max_tokens!, count);
    });
    return packPieces(text, pieces, o.max_tokens!, 0, count);
  });
}

export const semanticStrategy: StrategyDefinition = {
  name: "semantic",
  description:
    "Embeds sentences and cuts where the meaning shifts: between sentence windows whose distance is above a percentile (Kamradt), within min and max sizes.",
  parameters: semanticParameters,
  async create(given) {
    const options = resolveOptions("semantic", semanticParameters, given);
    checkSemanticOptions("semantic", options);
    const strategy: ChunkingStrategy = {
      name: "semantic",
      retrieval: "dense",
      options,
      async chunk(context) {
        return spansToDrafts(context.document.text, await semanticSpans(context, options));
      },
    };
    return strategy;
  },
};
