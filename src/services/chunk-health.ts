import { chunkHealth, degenerateChunkingWarnings, targetTokens, type ChunkHealth, type ChunkingOutline } from "../domain/chunk-health.js";
import { hashBytes } from "../domain/hash.js";
import type { StoredDocument } from "../domain/types.js";
import type { ServiceContext } from "./context.js";
import { mapWithConcurrency } from "../domain/concurrency.js";
import type { StrategyVariant } from "./variants.js";

/**
 * Chunk health of every index a benchmark searched (variants that differ only at search time share
 * one), keyed by index key, and the warnings for chunkings the comparison cannot tell apart.
 */
export async function chunkHealthOfRun(
  ctx: ServiceContext,
  documents: StoredDocument[],
  variants: StrategyVariant[],
): Promise<{ chunkHealth: Record<string, ChunkHealth>; chunkWarnings: string[] }> {
  const indexes = variants.filter((v, i) => variants.findIndex((w) => w.indexKey === v.indexKey) === i);
  const health: Record<string, ChunkHealth> = {};
  const outlines: ChunkingOutline[] = [];
  for (const variant of indexes) {
    const stored = await mapWithConcurrency(documents, 1, async (d) => ({ document: d, chunks: await ctx.chunks.current(d.id, variant.indexKey) }));
    const searchable = stored.map(({ document, chunks }) => ({ document, chunks: chunks.filter((c) => c.role === "chunk") }));
    health[variant.indexKey] = chunkHealth(
      searchable.map(({ document, chunks }) => ({ text: document.text, blocks: document.blocks, chunks })),
      targetTokens(variant.options),
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
  return { chunkHealth: health, chunkWarnings: degenerateChunkingWarnings(outlines) };
}
