import type { Block, DocumentRecord, StoredDocument } from "../types.js";

export interface NewDocument {
  id: string;
  filename: string;
  /** The name of the document format that read it (parsers/registry.ts). */
  format: string;
  title: string;
  paragraphCount: number;
  text: string;
  blocks: Block[];
  filePath: string;
  /** SHA-256 of the uploaded bytes, so a benchmark of the same file reuses its document. */
  contentHash: string;
  createdAt: string;
  /** What reading the file warned of (kept with the document, shown wherever it is used). */
  warnings?: string[];
}

/** Stored documents, with their chunk counts per processed strategy. */
export interface DocumentsRepo {
  insert(doc: NewDocument): Promise<void>;
  /**
   * Inserts the document unless one with the same bytes is stored (and `unlessStored` is set):
   * then nothing is written and that document's id is returned. Atomic: two processes uploading
   * the same bytes at once store them once.
   */
  insertUnlessStored(doc: NewDocument, unlessStored: boolean): Promise<string | null>;
  /** A document with exactly these bytes: of several copies, the newest under `filename`, else the newest of any name. */
  findByContentHash(hash: string, filename: string): Promise<string | null>;
  /** The documents stored under this file name, newest first. */
  idsNamed(filename: string): Promise<string[]>;
  /** What lists show: not the text and blocks. */
  record(id: string): Promise<DocumentRecord | null>;
  get(id: string): Promise<StoredDocument | null>;
  exists(id: string): Promise<boolean>;
  filePath(id: string): Promise<string | null>;
  /** Every document's original location (`doctor` looks for originals no row names). */
  allFilePaths(): Promise<string[]>;
  /** Newest first, ties broken by insertion order so pages are stable. */
  list(offset: number, limit: number): Promise<{ items: DocumentRecord[]; total: number }>;
  delete(id: string): Promise<boolean>;
  /** Deletes a document only while nothing uses it (no collection, strategy, pending generation, query or experiment names it). */
  deleteIfUnused(id: string): Promise<boolean>;
}
