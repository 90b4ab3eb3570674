import type { DocumentRecord, StoredDocument } from "../../domain/types.js";
import type { DocumentsRepo, NewDocument } from "../../domain/ports/documents.js";
import { blockShapes, blocksWithText, type BlockShape } from "../../domain/blocks.js";
import type { Executor } from "./executor.js";

interface DocumentRow {
  id: string;
  filename: string;
  format: string;
  title: string;
  paragraph_count: number;
  text: string;
  blocks_json: string;
  /** What reading the file warned of, as a JSON list; null (or absent, on rows read without it) when nothing. */
  warnings_json?: string | null;
  file_path: string;
  created_at: string;
  /** Chunk counts by strategy, keyed in strategy-name order (byte order, as the SQLite store sorts them). */
  counts: Record<string, number> | null;
}

/** The chunk counts of `d`'s strategies as one JSON object, in strategy-name order. */
const COUNTS = `(SELECT json_object_agg(s.strategy, s.chunk_count ORDER BY s.strategy COLLATE "C")
  FROM document_strategies s WHERE s.document_id = d.id) AS counts`;

function toRecord(row: DocumentRow): DocumentRecord {
  return { id: row.id, filename: row.filename, paragraphCount: row.paragraph_count, chunkCounts: row.counts ?? {}, createdAt: row.created_at };
}

/** Rows of `documents` <-> domain documents, with chunk counts from `document_strategies`. */
export class PostgresDocumentsRepo implements DocumentsRepo {
  constructor(private readonly db: Executor) {}

  async insert(doc: NewDocument): Promise<void> {
    await this.db.query(
      `INSERT INTO documents (id, filename, format, title, paragraph_count, text, blocks_json, file_path, content_hash, created_at, warnings_json)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
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
      ],
    );
  }

  /** A transaction-scoped advisory lock on the bytes' hash: two processes uploading the same bytes at once store them once. */
  insertUnlessStored(doc: NewDocument, unlessStored: boolean): Promise<string | null> {
    return this.db.atomic(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('document:' || $1, 0))`, [doc.contentHash]);
      const repo = new PostgresDocumentsRepo(tx);
      const stored = unlessStored ? await repo.findByContentHash(doc.contentHash, doc.filename) : null;
      if (stored === null) await repo.insert(doc);
      return stored;
    });
  }

  async findByContentHash(hash: string, filename: string): Promise<string | null> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT id FROM documents WHERE content_hash = $1 ORDER BY filename = $2 DESC, created_at COLLATE "C" DESC, seq DESC LIMIT 1`,
      [hash, filename],
    );
    return rows[0]?.id ?? null;
  }

  async idsNamed(filename: string): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(`SELECT id FROM documents WHERE filename = $1 ORDER BY created_at COLLATE "C" DESC, seq DESC`, [
      filename,
    ]);
    return rows.map((r) => r.id);
  }

  async record(id: string): Promise<DocumentRecord | null> {
    const { rows } = await this.db.query<DocumentRow>(`SELECT d.id, d.filename, d.paragraph_count, d.created_at, ${COUNTS} FROM documents d WHERE d.id = $1`, [
      id,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async get(id: string): Promise<StoredDocument | null> {
    const { rows } = await this.db.query<DocumentRow>(`SELECT d.*, ${COUNTS} FROM documents d WHERE d.id = $1`, [id]);
    const row = rows[0];
    if (!row) return null;
    return {
      ...toRecord(row),
      format: row.format,
      title: row.title,
      text: row.text,
      blocks: blocksWithText(JSON.parse(row.blocks_json) as BlockShape[], row.text),
      ...(row.warnings_json ? { warnings: JSON.parse(row.warnings_json) as string[] } : {}),
    };
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.query(`SELECT 1 FROM documents WHERE id = $1`, [id])).rowCount > 0;
  }

  async allFilePaths(): Promise<string[]> {
    return (await this.db.query<{ file_path: string }>(`SELECT file_path FROM documents`)).rows.map((r) => r.file_path);
  }

  async filePath(id: string): Promise<string | null> {
    const { rows } = await this.db.query<{ file_path: string }>(`SELECT file_path FROM documents WHERE id = $1`, [id]);
    return rows[0]?.file_path ?? null;
  }

  async list(offset: number, limit: number): Promise<{ items: DocumentRecord[]; total: number }> {
    const { rows } = await this.db.query<DocumentRow>(
      `SELECT d.id, d.filename, d.paragraph_count, d.created_at, ${COUNTS}
       FROM documents d ORDER BY d.created_at COLLATE "C" DESC, d.seq DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const total = (await this.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM documents`)).rows[0]!.n;
    return { items: rows.map(toRecord), total };
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.query(`DELETE FROM documents WHERE id = $1`, [id])).rowCount > 0;
  }

  async deleteIfUnused(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `DELETE FROM documents WHERE id = $1
         AND NOT EXISTS (SELECT 1 FROM collection_documents WHERE document_id = $1)
         AND NOT EXISTS (SELECT 1 FROM document_strategies WHERE document_id = $1)
         AND NOT EXISTS (SELECT 1 FROM pending_generations WHERE document_id = $1)
         AND NOT EXISTS (SELECT 1 FROM queries WHERE document_id = $1)
         AND NOT EXISTS (SELECT 1 FROM experiments WHERE document_id = $1)`,
      [id],
    );
    return rowCount > 0;
  }
}
