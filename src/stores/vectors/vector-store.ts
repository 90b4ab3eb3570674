/** One searchable chunk in the vector store. */
export interface VectorRow {
  chunkId: string;
  documentId: string;
  strategy: string;
  generation: string;
  /** The text that was embedded and is keyword-indexed (context included, where there is one). */
  text: string;
  vector: Float32Array;
}

/** Where one vector row is and what it belongs to. */
export interface VectorEntry extends VectorScope {
  vectorTable: string;
  chunkId: string;
}

/** Searches are always inside one generation of one document's strategy. */
export interface VectorScope {
  documentId: string;
  strategy: string;
  generation: string;
}

export interface VectorHit {
  chunkId: string;
  /** Cosine similarity for dense search, BM25 score for keyword search. */
  score: number;
}

/** The few vector operations the services use (port); LanceDB implements it. */
export interface VectorStore {
  add(table: string, rows: VectorRow[]): Promise<void>;
  search(table: string, vector: Float32Array, scope: VectorScope, limit: number): Promise<VectorHit[]>;
  deleteGeneration(table: string, scope: VectorScope): Promise<void>;
  deleteDocument(documentId: string): Promise<void>;
  /** Every stored vector row, by table (what cleanup and `chunkeval doctor` compare with SQLite). */
  inventory(): Promise<VectorEntry[]>;
  /**
   * Runs the store's pending upkeep now (indexes, compaction, removal of old versions) and waits
   * for it. It also runs on its own shortly after writes; this is for benchmarks, tests and shutdown.
   */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

export const VECTOR_TABLE_PREFIX = "chunks_";

/** Table name for an embedder's vectors: one table per embedder and dimension. */
export function vectorTableName(embedder: string, dimension: number): string {
  return `${VECTOR_TABLE_PREFIX}${embedder.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_${dimension}`;
}
