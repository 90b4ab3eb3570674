import { ValidationError } from "../errors.js";
import { meanVector, cosine, percentile } from "../domain/vectors.js";
import type { Span } from "../text/spans.js";
import { sentenceSpans } from "../text/sentences.js";
import { TokenIndex } from "../text/token-index.js";
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
 * Kamradt's semantic chunking: embed every sentence and cut at the gaps where the meaning
 * shifts most, i.e. where the cosine distance across the gap is above the given percentile of
 * all gaps' distances. Two deliberate changes from the original: the distance at the gap after
 * sentence i compares the b+1 sentences before it (i-b..i) with the b+1 after it (i+1..i+1+b),
 * rather than two centred windows that share sentences, so the peak falls on the gap itself;
 * and a window is the mean of its sentences' embeddings, so each sentence is embedded once.
 * Groups over max_tokens are packed sentence by sentence; chunks under min_tokens then merge
 * into a neighbour.
 */
export async function semanticSpans(context: ChunkingContext, index: TokenIndex, o: Record<string, number>): Promise<Span[]> {
  const text = index.text;
  const sentences = sentenceSpans(text);
  if (sentences.length === 0) return [];
  const embeddings = await context.embed(
    sentences.map((s) => text.slice(s.start, s.end)),
    context.signal,
  );
  const b = o.buffer_size!;
  const distances = embeddings
    .slice(0, -1)
    .map((_, i) => 1 - cosine(meanVector(embeddings.slice(Math.max(0, i - b), i + 1)), meanVector(embeddings.slice(i + 1, i + 2 + b))));
  const threshold = percentile(distances, o.breakpoint_percentile!);

  const groups: Span[] = [];
  let groupStart = 0;
  for (let i = 0; i < sentences.length; i++) {
    if (i === sentences.length - 1 || distances[i]! > threshold) {
      groups.push({ start: sentences[groupStart]!.start, end: sentences[i]!.end });
      groupStart = i + 1;
    }
  }

  const tokens = (span: Span) => index.count(span.start, span.end);
  const sized = groups.flatMap((group) => {
    if (tokens(group) <= o.max_tokens!) return [group];
    const pieces = sentenceSpans(text, group).flatMap((s, i, all) => {
      // Pieces must cover the group contiguously, so each sentence takes the gap before it.
      const span = { start: i === 0 ? group.start : all[i - 1]!.end, end: s.end };
      return tokens(span) <= o.max_tokens! ? [span] : boundedWordPieces(index, span, o.max_tokens!);
    });
    return packPieces(index, pieces, o.max_tokens!, 0);
  });
  return mergeSmallChunks(sized, o.min_tokens!, o.max_tokens!, tokens);
}

/**
 * Merges every chunk under `min` tokens into its smaller neighbour that can take it without
 * going over `max`; a chunk that no neighbour can take stays as it is.
 */
export function mergeSmallChunks(spans: Span[], min: number, max: number, tokens: (s: Span) => number): Span[] {
  const out = spans.map((s) => ({ ...s }));
  let i = 0;
  while (i < out.length) {
    const current = out[i]!;
    if (tokens(current) >= min) {
      i++;
      continue;
    }
    const candidates = [i - 1, i + 1]
      .filter((j) => j >= 0 && j < out.length)
      .map((j) => ({ j, merged: { start: Math.min(out[j]!.start, current.start), end: Math.max(out[j]!.end, current.end) } }))
      .filter((c) => tokens(c.merged) <= max)
      .sort((a, b) => tokens(a.merged) - tokens(b.merged));
    if (candidates.length === 0) {
      i++;
      continue;
    }
    const { j, merged } = candidates[0]!;
    out[Math.min(i, j)] = merged;
    out.splice(Math.max(i, j), 1);
    i = Math.max(0, Math.min(i, j));
  }
  return out;
}

export const semanticStrategy: StrategyDefinition = {
  name: "semantic",
  description:
    "Embeds sentences and cuts where the meaning shifts: between sentence windows whose distance is above a percentile (Kamradt), within min and max sizes.",
  parameters: semanticParameters,
  sizing: { target: "max_tokens" },
  embedsSentences: true,
  async create(given) {
    const options = resolveOptions("semantic", semanticParameters, given);
    checkSemanticOptions("semantic", options);
    const strategy: ChunkingStrategy = {
      name: "semantic",
      retrieval: "dense",
      options,
      async chunk(context) {
        const index = new TokenIndex(context.document.text);
        return spansToDrafts(index, await semanticSpans(context, index, options));
      },
    };
    return strategy;
  },
};
