import type { DocumentRecord, StoredDocument } from "../../domain/types.js";
import type { Db } from "./database.js";
import { blockShapes, blocksWithText, type BlockShape } from "../../domain/blocks.js";
import type { NewDocument } from "../../domain/ports/documents.js";
export type { NewDocument };

interface DocumentRow {
  id: string;
  filename: string;
  /** The name of the document format that read it (parsers/registry.ts). */
  format: string;
  title: string;
  paragraph_count: number;
  text: string;
  /** Blocks without their text (domain/blocks.ts); older rows carry it, and read the same. */
  blocks_json: string;
  /** What reading the file warned of, as a JSON list; null (or absent, on rows read without it) when nothing. */
  warnings_json?: string | null;
  file_path: string;
  created_at: string;
}

/** Chunk counts keyed in strategy-name order, so output does not depend on the query plan. */
function sortedCounts(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Rows of `documents` <-> domain documents, with chunk counts from `document_strategies`. */
export class SqliteDocumentsRepo {
  constructor(private readonly db: Db) {}

  insert(doc: NewDocument): void {
    this.db
      .prepare(
        `INSERT INTO documents (id, filename, format, title, paragraph_count, text, blocks_json, file_path, content_hash, created_at, warnings_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        doc.id,
        doc.filename,
        doc.format,
        doc.title,
        doc.paragraphCount,
        doc.text,
        JSON.stringify(blockShapes(doc.blocks)),
        doc.filePath,
        doc.contentHash,
        doc.createdAt,
        doc.warnings && doc.warnings.length > 0 ? JSON.stringify(doc.warnings) : null,
      );
  }

  /**
   * Inserts the document unless one with the same bytes is stored (and `unlessStored` is set):
   * then nothing is written and that document's id is returned. One immediate transaction, so
   * two processes uploading the same bytes at once store them once.
   */
  insertUnlessStored(doc: NewDocument, unlessStored: boolean): string | null {
    return this.db
      .transaction(() => {
        const stored = unlessStored ? this.findByContentHash(doc.contentHash, doc.filename) : null;
        if (stored === null) this.insert(doc);
        return stored;
      })
      .immediate();
  }

  /**
   * A document uploaded with exactly these bytes, if any: of several copies (`--new`), the newest
   * one stored under `filename`, else the newest of any name.
   */
  findByContentHash(hash: string, filename: string): string | null {
    const row = this.db
      .prepare(`SELECT id FROM documents WHERE content_hash = ? ORDER BY filename = ? DESC, created_at DESC, rowid DESC LIMIT 1`)
      .get(hash, filename) as { id: string } | undefined;
    return row?.id ?? null;
  }

  /** The documents stored under this file name, newest first. */
  idsNamed(filename: string): string[] {
    const rows = this.db.prepare(`SELECT id FROM documents WHERE filename = ? ORDER BY created_at DESC, rowid DESC`).all(filename) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  record(id: string): DocumentRecord | null {
    // Not the text and blocks: a record is what lists show, and a long document's are megabytes.
    const row = this.db.prepare(`SELECT id, filename, paragraph_count, created_at FROM documents WHERE id = ?`).get(id) as DocumentRow | undefined;
    return row ? this.toRecord(row) : null;
  }

  get(id: string): StoredDocument | null {
    const row = this.db.prepare(`SELECT * FROM documents WHERE id = ?`).get(id) as DocumentRow | undefined;
    if (!row) return null;
    return {
      ...this.toRecord(row),
      format: row.format,
      title: row.title,
      text: row.text,
      blocks: blocksWithText(JSON.parse(row.blocks_json) as BlockShape[], row.text),
      ...(row.warnings_json ? { warnings: JSON.parse(row.warnings_json) as string[] } : {}),
    };
  }

  exists(id: string): boolean {
    return this.db.prepare(`SELECT 1 FROM documents WHERE id = ?`).get(id) !== undefined;
  }

  allFilePaths(): string[] {
    return (this.db.prepare(`SELECT file_path FROM documents`).all() as Array<{ file_path: string }>).map((r) => r.file_path);
  }

  filePath(id: string): string | null {
    const row = this.db.prepare(`SELECT file_path FROM documents WHERE id = ?`).get(id) as { file_path: string } | undefined;
    return row?.file_path ?? null;
  }

  /**
   * Newest first; ties (same millisecond) broken by insertion order so pages are stable. One
   * query for the page with its chunk counts and one for the total, whatever the page size:
   * the documents' texts are not read, and counts are not fetched row by row.
   */
  list(offset: number, limit: number): { items: DocumentRecord[]; total: number } {
    const rows = this.db
      .prepare(
        `SELECT d.id, d.filename, d.paragraph_count, d.created_at,
           (SELECT json_group_object(s.strategy, s.chunk_count) FROM document_strategies s WHERE s.document_id = d.id) AS counts_json
         FROM documents d ORDER BY d.created_at DESC, d.rowid DESC LIMIT ? OFFSET ?`,
      )
      .all(limit, offset) as Array<Pick<DocumentRow, "id" | "filename" | "paragraph_count" | "created_at"> & { counts_json: string }>;
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM documents`).get() as { n: number };
    return {
      items: rows.map((r) => ({
        id: r.id,
        filename: r.filename,
        paragraphCount: r.paragraph_count,
        chunkCounts: sortedCounts(JSON.parse(r.counts_json) as Record<string, number>),
        createdAt: r.created_at,
      })),
      total: n,
    };
  }

  delete(id: string): boolean {
    return this.db.prepare(`DELETE FROM documents WHERE id = ?`).run(id).changes > 0;
  }

  /**
   * Deletes a document only while nothing uses it: no collection holds it, no strategy was (or
   * is being) processed for it, no query or experiment names it. For taking back an upload that
   * another caller may have picked up meanwhile (the same bytes find the same document).
   */
  deleteIfUnused(id: string): boolean {
    return (
      this.db
        .prepare(
          `DELETE FROM documents WHERE id = ?
             AND NOT EXISTS (SELECT 1 FROM collection_documents WHERE document_id = ?)
             AND NOT EXISTS (SELECT 1 FROM document_strategies WHERE document_id = ?)
             AND NOT EXISTS (SELECT 1 FROM pending_generations WHERE document_id = ?)
             AND NOT EXISTS (SELECT 1 FROM queries WHERE document_id = ?)
             AND NOT EXISTS (SELECT 1 FROM experiments WHERE document_id = ?)`,
        )
        .run(id, id, id, id, id, id).changes > 0
    );
  }

  private toRecord(row: DocumentRow): DocumentRecord {
    const counts = this.db.prepare(`SELECT strategy, chunk_count FROM document_strategies WHERE document_id = ?`).all(row.id) as Array<{
      strategy: string;
      chunk_count: number;
    }>;
    return {
      id: row.id,
      filename: row.filename,
      paragraphCount: row.paragraph_count,
      chunkCounts: sortedCounts(Object.fromEntries(counts.map((c) => [c.strategy, c.chunk_count]))),
      createdAt: row.created_at,
    };
  }
}
