import type { CollectionRecord } from "../types.js";

/** Named sets of documents benchmarked together. */
export interface CollectionsRepo {
  /** Creates the collection, or finds the one that already has this name; `created` says which. */
  ensure(id: string, name: string, createdAt: string): Promise<{ id: string; created: boolean }>;
  /**
   * Atomically adds documents at the end, in order, each under its name in the collection; one
   * already in it keeps its place. A name another member has is a ConflictError, and then nothing
   * is added. Returns the ids it added.
   */
  addDocuments(collectionId: string, members: Array<{ id: string; filename: string }>): Promise<string[]>;
  /** Deletes a collection this caller created, unless it has members (another caller filled it meanwhile). */
  deleteIfEmpty(collectionId: string): Promise<void>;
  removeDocument(collectionId: string, documentId: string): Promise<boolean>;
  delete(collectionId: string): Promise<boolean>;
  /** A collection by id or by name. */
  find(idOrName: string): Promise<CollectionRecord | null>;
  list(offset: number, limit: number): Promise<{ items: CollectionRecord[]; total: number }>;
}
