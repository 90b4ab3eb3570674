import type { ChunksRepo, GenerationRef } from "../../domain/ports/chunks.js";
import type { Owner } from "../../domain/ports/owner.js";
import type { VectorEntry, VectorStore } from "../../stores/vectors/vector-store.js";

/**
 * A pending generation older than this is abandoned even if its owner still runs: writing one
 * strategy's vectors takes seconds, and a slow owner that outlives the bound finds its pending
 * row gone and refuses to commit (ChunksRepo.commitGeneration), so the bound is never unsafe.
 */
export const ABANDONED_GENERATION_MS = 60 * 60 * 1000;

const key = (r: { vectorSpace: string; generation: string }) => `${r.vectorSpace}\u0000${r.generation}`;

/** The distinct generations that have vector rows. */
export function generationsIn(entries: VectorEntry[]): GenerationRef[] {
  const out = new Map<string, GenerationRef>();
  for (const e of entries) out.set(key(e), { vectorSpace: e.vectorSpace, documentId: e.documentId, strategy: e.strategy, generation: e.generation });
  return [...out.values()];
}

/**
 * Removes vectors no process will ever commit (recovery rule of stores/README.md). Safe while
 * other processes write: the vector rows are listed BEFORE SQLite is read, and every writer
 * records its generation as pending before writing a vector, so any row seen here belongs to a
 * generation SQLite already knows as pending or current, unless it is abandoned or replaced.
 * Returns how many generations' vectors were deleted.
 */
export async function sweepAbandoned(chunks: ChunksRepo, store: VectorStore, me: Owner, maxAgeMs = ABANDONED_GENERATION_MS): Promise<number> {
  const present = generationsIn(await store.inventory());
  const claimed = await chunks.claimAbandoned(me, maxAgeMs);
  // Pending before current: a commit moves a generation from one to the other in one
  // transaction, so one that commits between the two reads is still seen in the second.
  const pending = await chunks.pendingGenerations();
  const keep = new Set([...pending, ...(await chunks.currentGenerations())].map(key));
  const doomed = new Map<string, GenerationRef>();
  for (const g of [...present, ...claimed]) if (!keep.has(key(g))) doomed.set(key(g), g);
  for (const g of doomed.values()) await store.deleteGeneration(g.vectorSpace, g);
  return doomed.size;
}
