import type { ChunksRepo, GenerationRef } from "../stores/sqlite/chunks-repo.js";
import type { Owner } from "../stores/owner.js";
import type { VectorEntry, VectorStore } from "../stores/vectors/vector-store.js";

/**
 * A pending generation older than this is abandoned even if its owner still runs: writing one
 * strategy's vectors takes seconds, and a slow owner that outlives the bound finds its pending
 * row gone and refuses to commit (ChunksRepo.commitGeneration), so the bound is never unsafe.
 */
export const ABANDONED_GENERATION_MS = 60 * 60 * 1000;

const key = (r: { vectorTable: string; generation: string }) => `${r.vectorTable}\u0000${r.generation}`;

/** The distinct generations that have vector rows. */
export function generationsIn(entries: VectorEntry[]): GenerationRef[] {
  const out = new Map<string, GenerationRef>();
  for (const e of entries) out.set(key(e), { vectorTable: e.vectorTable, documentId: e.documentId, strategy: e.strategy, generation: e.generation });
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
  const claimed = chunks.claimAbandoned(me, maxAgeMs);
  const keep = new Set([...chunks.currentGenerations(), ...chunks.pendingGenerations()].map(key));
  const doomed = new Map<string, GenerationRef>();
  for (const g of [...present, ...claimed]) if (!keep.has(key(g))) doomed.set(key(g), g);
  for (const g of doomed.values()) await store.deleteGeneration(g.vectorTable, g);
  return doomed.size;
}
