import { chunkHealth, degenerateChunkingWarnings, topKCoversEveryChunkWarnings, type ChunkingOutline } from "../../domain/chunk-health.js";
import { targetSize } from "../../strategies/strategy.js";
import type { ChunkHealth } from "../../domain/experiment.js";
import { hashBytes } from "../../domain/hash.js";
import type { StoredDocument } from "../../domain/types.js";
import type { ServiceContext } from "../context.js";
import { mapWithConcurrency } from "../../domain/concurrency.js";
import { variantSearchPlan, type StrategyVariant } from "../corpus/variants.js";

/**
 * Chunk health of every index a benchmark searched (variants that differ only at search time share
 * one), keyed by index key, the warnings for chunkings the comparison cannot tell apart, and the
 * variants (by key) those warnings concern: the verdict recommends none of them.
 */
export async function chunkHealthOfRun(
  ctx: ServiceContext,
  documents: StoredDocument[],
  variants: StrategyVariant[],
  topK: number,
): Promise<{ figures: { chunkHealth: Record<string, ChunkHealth>; chunkWarnings: string[] }; cannotTellApart: string[] }> {
  const indexes = variants.filter((v, i) => variants.findIndex((w) => w.indexKey === v.indexKey) === i);
  const health: Record<string, ChunkHealth> = {};
  const outlines: ChunkingOutline[] = [];
  for (const variant of indexes) {
    const stored = await mapWithConcurrency(documents, 1, async (d) => ({ document: d, chunks: await ctx.chunks.current(d.id, variant.indexKey) }));
    const searchable = stored.map(({ document, chunks }) => ({ document, chunks: chunks.filter((c) => c.role === "chunk") }));
    health[variant.indexKey] = chunkHealth(
      searchable.map(({ document, chunks }) => ({ text: document.text, blocks: document.blocks, chunks })),
      targetSize(ctx.strategies.get(variant.strategy), variant.options)?.size ?? null,
    );
    for (const { document, chunks } of stored) {
      const spanOf = new Map(chunks.map((c) => [c.id, `${c.start}-${c.end}`]));
      const signature = chunks
        .filter((c) => c.role === "chunk")
        .map((c) => `${c.start}-${c.end}:${c.parentId ? spanOf.get(c.parentId) : ""}:${c.context ?? ""}`)
        .join("\n");
      // What a search returns: the parents of a parent-child strategy, else the chunks.
      const returned = chunks.some((c) => c.role === "parent") ? "parent" : "chunk";
      outlines.push({
        strategy: variant.indexKey,
        document: document.filename,
        chunks: chunks.filter((c) => c.role === returned).length,
        signature: hashBytes(signature),
      });
    }
  }
  const searched = variants.map((v) => ({
    key: v.key,
    indexKey: v.indexKey,
    topK: v.topK ?? topK,
    retrieval: variantSearchPlan(ctx, v).mode,
  }));
  const degenerate = degenerateChunkingWarnings(outlines);
  const topKWarnings = topKCoversEveryChunkWarnings(outlines, searched);
  // Degenerate-chunking warnings name indexes (every variant searching one is concerned); top_k warnings name variants.
  const warnedIndexes = new Set(degenerate.flatMap((w) => w.strategies));
  const keys = new Set(topKWarnings.flatMap((w) => w.strategies));
  return {
    figures: { chunkHealth: health, chunkWarnings: [...degenerate, ...topKWarnings].map((w) => w.message) },
    cannotTellApart: variants.filter((v) => warnedIndexes.has(v.indexKey) || keys.has(v.key)).map((v) => v.key),
  };
}
