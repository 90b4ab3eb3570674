import type { ChunkHealth } from "./experiment.js";
import type { Block } from "./types.js";
import { listWords } from "./list-words.js";
import { quantile } from "./statistics.js";
import { EMBEDDER_PARAMETER, indexKeyOf, withoutParameter, type SearchMode } from "./variant-key.js";

/** A chunk under this share of the strategy's target size is tiny: too little text to answer from, or a scrap left at a boundary. */
export const TINY_SHARE_OF_TARGET = 0.25;

/** What chunk health reads of one document and the strategy's searchable chunks of it. */
export interface ChunkedDocument {
  text: string;
  blocks: Array<Pick<Block, "kind" | "start" | "end">>;
  chunks: Array<{ start: number; end: number; tokenCount: number }>;
}

const SENTENCE_END = /[.!?…。][)\]"'’”»]*$/;

/**
 * True when a chunk stops inside a sentence: its text does not end a sentence, and the document
 * goes on along the same line after it. A heading, list item or table row ends its line without a
 * full stop, and a chunk that ends there does not cut a sentence.
 */
export function endsMidSentence(text: string, end: number): boolean {
  const rest = /^[ \t]*(\r?\n|$)/.exec(text.slice(end, end + 200));
  if (rest) return false;
  return !SENTENCE_END.test(text.slice(Math.max(0, end - 20), end).trimEnd());
}

/** The tables of a document: each run of consecutive table-row blocks, as one span. */
export function tableSpans(blocks: ChunkedDocument["blocks"]): Array<{ start: number; end: number }> {
  const tables: Array<{ start: number; end: number }> = [];
  let open: { start: number; end: number } | null = null;
  for (const b of blocks) {
    if (b.kind === "table_row") {
      if (open) open.end = b.end;
      else open = { start: b.start, end: b.end };
    } else if (open) {
      tables.push(open);
      open = null;
    }
  }
  if (open) tables.push(open);
  return tables;
}

/** A table is split when no chunk holds it whole while chunks overlap it. */
function isSplit(table: { start: number; end: number }, chunks: ChunkedDocument["chunks"]): boolean {
  const touching = chunks.filter((c) => c.start < table.end && c.end > table.start);
  return touching.length > 0 && !touching.some((c) => c.start <= table.start && c.end >= table.end);
}

export function chunkHealth(documents: ChunkedDocument[], target: number | null): ChunkHealth {
  const chunks = documents.flatMap((d) => d.chunks);
  const sizes = chunks.map((c) => c.tokenCount).sort((a, b) => a - b);
  const share = (n: number, of: number) => (of === 0 ? null : n / of);
  const tables = documents.flatMap((d) => tableSpans(d.blocks).map((t) => isSplit(t, d.chunks)));
  const midSentence = documents.reduce((n, d) => n + d.chunks.filter((c) => endsMidSentence(d.text, c.end)).length, 0);
  return {
    chunks: chunks.length,
    targetTokens: target,
    tinyShare: target === null ? null : share(sizes.filter((s) => s < TINY_SHARE_OF_TARGET * target).length, sizes.length),
    midSentenceShare: share(midSentence, chunks.length),
    tables: tables.length,
    tablesSplit: tables.filter(Boolean).length,
    tablesSplitShare: share(tables.filter(Boolean).length, tables.length),
    medianTokens: sizes.length === 0 ? null : quantile(sizes, 0.5),
    tokensInterquartile: sizes.length === 0 ? null : [quantile(sizes, 0.25), quantile(sizes, 0.75)],
  };
}

/** One strategy's chunking of one document, as the degeneracy checks compare it. */
export interface ChunkingOutline {
  strategy: string;
  document: string;
  /** The units a search of the document returns (a parent-child strategy's parents, else its chunks). */
  chunks: number;
  /** Identifies the chunks: their spans, what was embedded for them, and their parents. */
  signature: string;
}

/** A warning that the comparison cannot tell the strategies it names apart, with those strategies. */
export interface ChunkWarning {
  message: string;
  strategies: string[];
}

/**
 * Warnings for comparisons that cannot tell strategies apart: strategies that made identical
 * chunks of every document (any difference between them comes from search settings, not
 * chunking), and documents that a strategy made a single chunk of (shorter than one chunk:
 * every search returns the whole document, so recall there says nothing of the chunking).
 */
export function degenerateChunkingWarnings(outlines: ChunkingOutline[]): ChunkWarning[] {
  const warnings: ChunkWarning[] = [];
  const strategies = [...new Set(outlines.map((o) => o.strategy))];
  const whole = (s: string) =>
    outlines
      .filter((o) => o.strategy === s)
      .map((o) => `${o.document}\u0000${o.signature}`)
      .sort()
      .join("\u0001");
  const groups = new Map<string, string[]>();
  for (const s of strategies) groups.set(whole(s), [...(groups.get(whole(s)) ?? []), s]);
  for (const same of groups.values()) {
    // Indexes that differ only in their embedder are one chunking embedded twice (`--embedders`): their chunks are meant to be alike.
    if (new Set(same.map((s) => withoutParameter(s, EMBEDDER_PARAMETER))).size < 2) continue;
    warnings.push({
      message: `${listWords(same)} made identical chunks (same spans and embedded text in every document): the comparison cannot tell their chunking apart.`,
      strategies: same,
    });
  }
  const documents = [...new Set(outlines.map((o) => o.document))];
  for (const document of documents) {
    const single = outlines.filter((o) => o.document === document && o.chunks === 1).map((o) => o.strategy);
    if (single.length === 0) continue;
    warnings.push({
      message:
        `${document} is shorter than one chunk of ${listWords(single)}: ${single.length > 1 ? "each makes" : "it makes"} a single chunk of it, ` +
        `so every search returns the whole document and the comparison cannot tell strategies apart on it.`,
      strategies: single,
    });
  }
  return warnings;
}

/**
 * Warnings for variants whose top_k is at least the number of chunks a search can return (over
 * every document searched): every dense or hybrid search returns everything, so recall is
 * trivially 1. A keyword search returns only the chunks that share a term with the question, so
 * it still chooses, and is left out; so is a strategy that makes a single chunk of every document
 * (the shorter-than-one-chunk warning says it).
 */
export function topKCoversEveryChunkWarnings(
  outlines: ChunkingOutline[],
  variants: Array<{ key: string; indexKey: string; topK: number; retrieval: SearchMode }>,
): ChunkWarning[] {
  const byTopK = new Map<string, string[]>();
  for (const v of variants.filter((v) => v.retrieval !== "keyword")) {
    const own = outlines.filter((o) => o.strategy === v.indexKey);
    const total = own.reduce((n, o) => n + o.chunks, 0);
    if (own.length === 0 || own.every((o) => o.chunks === 1) || v.topK < total) continue;
    const key = `${v.topK}\u0000${total}`;
    byTopK.set(key, [...(byTopK.get(key) ?? []), v.key]);
  }
  return [...byTopK].map(([key, keys]) => {
    const [topK, total] = key.split("\u0000");
    return {
      message:
        `top_k ${topK} is at least the ${total} chunks ${listWords(keys)} ${keys.length > 1 ? "each make" : "makes"} of the documents searched: ` +
        `every dense or hybrid search returns all of them, so recall is trivially 1 and the comparison cannot tell strategies apart.`,
      strategies: keys,
    };
  });
}

/**
 * Each strategy's chunk health, from a run's health per index: variants that differ only at
 * search time (`recursive@retrieval=keyword`) searched the same chunks, so they share their index's.
 * A strategy whose index has none recorded is left out.
 */
export function chunkHealthByStrategy(strategies: string[], byIndex: Record<string, ChunkHealth>): Record<string, ChunkHealth> {
  return Object.fromEntries(strategies.flatMap((s) => (byIndex[indexKeyOf(s)] ? [[s, byIndex[indexKeyOf(s)]!]] : [])));
}
