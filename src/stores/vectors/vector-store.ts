import { IndexFailedError } from "../../errors.js";

/** One searchable chunk in the vector store. */
export interface VectorRow {
  chunkId: string;
  documentId: string;
  strategy: string;
  generation: string;
  /** The text that was embedded (context included, where there is one). */
  text: string;
  vector: Float32Array;
}

/** Where one vector row is and what it belongs to. */
export interface VectorEntry extends VectorScope {
  vectorSpace: string;
  chunkId: string;
}

/** Searches are always inside generations of documents' strategies: one document's, or a collection's. */
export interface VectorScope {
  documentId: string;
  strategy: string;
  generation: string;
  /** How many vectors it holds, when known: a store may search many rows approximately, few exactly. */
  chunkCount?: number;
}

export interface VectorHit {
  chunkId: string;
  /** Cosine similarity for dense search, BM25 score for keyword search. */
  score: number;
}

/** How a store looks after itself: when upkeep runs after writes, how long old versions are kept. */
export interface StoreUpkeep {
  /** How long after the first write of a quiet period upkeep runs (writes in between share the run). */
  delayMs: number;
  /** Old versions are deleted once older than this; other processes may still read younger ones. */
  versionRetentionMs: number;
}

/** How the evaluation store keeps and searches its tables. */
export interface VectorStoreOptions extends StoreUpkeep {
  /**
   * Past this many rows a table gets an ANN index, and a search whose scopes hold at least this
   * many rows (a large collection's) uses it; smaller scopes are always searched exactly.
   */
  vectorIndexMinRows: number;
}

/**
 * The vector operations the evaluation services use (port). Vectors of one embedder and
 * dimension live in one *space*: an opaque key the store hands out (`spaceFor`), which SQLite
 * records with each generation and services pass back unchanged, never parse or build.
 */
export interface VectorStore {
  spaceFor(embedder: string, dimension: number): string;
  add(space: string, rows: VectorRow[]): Promise<void>;
  /** The nearest `limit` rows over the union of the scopes (a collection searches one scope per document). */
  search(space: string, vector: Float32Array, scopes: VectorScope[], limit: number): Promise<VectorHit[]>;
  deleteGeneration(space: string, scope: VectorScope): Promise<void>;
  deleteDocument(documentId: string): Promise<void>;
  /** Every stored vector row, by space (what cleanup and `chunkeval doctor` compare with SQLite). */
  inventory(): Promise<VectorEntry[]>;
  /**
   * Runs the store's pending upkeep now (indexes, compaction, removal of old versions) and waits
   * for it. It also runs on its own shortly after writes; this is for benchmarks, tests and shutdown.
   */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

/** A processed strategy whose vectors the store cannot find: an error, never an empty answer. */
export function missingVectorsError(): IndexFailedError {
  return new IndexFailedError("the strategy's vectors are missing from the vector store (run: chunkeval doctor)");
}
