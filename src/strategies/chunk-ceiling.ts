import { ChunkLimitError } from "../errors.js";
import type { ChunkCeiling, ChunkDraft } from "./strategy.js";

/** Throws a ChunkLimitError naming the setting when `count` searchable chunks are past the ceiling. */
export function checkChunkCeiling(count: number, strategy: string, ceiling: ChunkCeiling | undefined): void {
  if (ceiling !== undefined && count > ceiling.limit) {
    throw new ChunkLimitError(`the document yields ${count} chunks with ${strategy}, more than ${ceiling.setting} (${ceiling.limit})`);
  }
}

/** The searchable chunks of a strategy's drafts (a parent is stored, not searched). */
export function searchableCount(drafts: ChunkDraft[]): number {
  return drafts.filter((d) => d.role === "chunk").length;
}
