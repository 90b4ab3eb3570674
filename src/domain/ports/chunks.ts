import type { Chunk, RetrievalMode } from "../types.js";
import type { Owner } from "./owner.js";

/** Which generation of a strategy's chunks is current, and how it was made. */
export interface StrategyState {
  documentId: string;
  strategy: string;
  generation: string;
  options: Record<string, number>;
  embedder: string;
  vectorSpace: string;
  retrieval: RetrievalMode;
  chunkCount: number;
  processedAt: string;
}

/** A generation whose vectors are being written and that is not current yet. */
export interface PendingGeneration {
  documentId: string;
  strategy: string;
  generation: string;
  vectorSpace: string;
  owner: { instance: string; pid: number; host: string };
  startedAtMs: number;
}

/** A generation's vectors, wherever they are: what cleanup and the doctor work with. */
export type GenerationRef = { documentId: string; strategy: string; generation: string; vectorSpace: string };

/** Chunks and their generations (current and pending); see stores/README.md for the write order. */
export interface ChunksRepo {
  state(documentId: string, strategy: string): Promise<StrategyState | null>;
  /** Every (document, strategy, generation) that is current. */
  currentGenerations(): Promise<GenerationRef[]>;
  /** Generations whose vectors are being written by some process, not committed yet. */
  pendingGenerations(): Promise<PendingGeneration[]>;
  /** Step 1 of the write order: records the generation as pending before any of its vectors is written. */
  beginGeneration(ref: GenerationRef, owner: Owner, nowMs?: number): Promise<void>;
  /** A pending generation that will not be committed: its vectors are removed (or about to be). */
  dropPending(generation: string): Promise<void>;
  /**
   * Atomically claims (deletes the rows of) the pending generations that are provably abandoned:
   * the owner's process is gone, or the generation is older than `maxAgeMs`.
   */
  claimAbandoned(me: Owner, maxAgeMs: number, nowMs?: number): Promise<PendingGeneration[]>;
  /**
   * Atomically makes `chunks` the current generation of (document, strategy) and removes the rows
   * of the generation it replaces; returns the replaced state, if any. Fails with a ConflictError,
   * changing nothing, when the generation is no longer pending or the document was deleted.
   */
  commitGeneration(state: StrategyState, chunks: Chunk[]): Promise<StrategyState | null>;
  /** Forgets a strategy's committed state (doctor --repair of a strategy whose vectors are missing). */
  forgetStrategy(documentId: string, strategy: string): Promise<void>;
  /** The searchable chunk ids of every current generation, read in one snapshot (the doctor's view). */
  committedChunks(): Promise<Array<GenerationRef & { chunkIds: string[] }>>;
  /** The current chunks of a strategy, in position order (parents included). */
  current(documentId: string, strategy: string): Promise<Chunk[]>;
  /** Chunks by id, each with the document it belongs to (a collection's search spans several). */
  byIds(ids: string[]): Promise<Map<string, Chunk & { documentId: string }>>;
}
