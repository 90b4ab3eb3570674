import type { CollectionRecord } from "../../domain/types.js";
import type { CollectionsRepo } from "../../domain/ports/collections.js";
import { ConflictError } from "../../errors.js";
import type { Executor } from "./executor.js";

interface CollectionRow {
  id: string;
  name: string;
  created_at: string;
  documents: Array<{ id: string; filename: string; warnings: string | null }>;
}

/** A collection's row with its members in order, as one JSON array. */
const SELECT_COLLECTION = `SELECT c.id, c.name, c.created_at,
  COALESCE((SELECT json_agg(json_build_object('id', m.document_id, 'filename', m.filename, 'warnings', d.warnings_json) ORDER BY m.position)
            FROM collection_documents m JOIN documents d ON d.id = m.document_id WHERE m.collection_id = c.id), '[]') AS documents
  FROM collections c`;

const toRecord = (row: CollectionRow): CollectionRecord => ({
  id: row.id,
  name: row.name,
  documents: row.documents.map((d) => ({ id: d.id, filename: d.filename, ...(d.warnings ? { warnings: JSON.parse(d.warnings) as string[] } : {}) })),
  createdAt: row.created_at,
});

/** Rows of `collections` and `collection_documents` <-> collection records. */
export class PostgresCollectionsRepo implements CollectionsRepo {
  constructor(private readonly db: Executor) {}

  async ensure(id: string, name: string, createdAt: string): Promise<{ id: string; created: boolean }> {
    const created =
      (await this.db.query(`INSERT INTO collections (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`, [id, name, createdAt]))
        .rowCount > 0;
    const { rows } = await this.db.query<{ id: string }>(`SELECT id FROM collections WHERE name = $1`, [name]);
    return { id: rows[0]!.id, created };
  }

  /** The collection's row is locked while members are placed: two callers adding at once take turns. */
  addDocuments(collectionId: string, members: Array<{ id: string; filename: string }>): Promise<string[]> {
    return this.db.atomic(async (tx) => {
      await tx.query(`SELECT 1 FROM collections WHERE id = $1 FOR UPDATE`, [collectionId]);
      const current = await tx.query<{ document_id: string; filename: string; position: number }>(
        `SELECT document_id, filename, position FROM collection_documents WHERE collection_id = $1`,
        [collectionId],
      );
      const present = new Set(current.rows.map((r) => r.document_id));
      const holders = new Map(current.rows.map((r) => [r.filename, r.document_id]));
      let position = current.rows.reduce((max, r) => Math.max(max, r.position + 1), 0);
      const added: string[] = [];
      for (const { id, filename } of members) {
        if (present.has(id)) continue;
        const other = holders.get(filename);
        if (other !== undefined)
          throw new ConflictError(`the collection already has a document named ${filename} (${other}); rename the file or remove that one first`);
        await tx.query(`INSERT INTO collection_documents (collection_id, document_id, filename, position) VALUES ($1, $2, $3, $4)`, [
          collectionId,
          id,
          filename,
          position++,
        ]);
        present.add(id);
        holders.set(filename, id);
        added.push(id);
      }
      return added;
    });
  }

  async deleteIfEmpty(collectionId: string): Promise<void> {
    await this.db.query(`DELETE FROM collections WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM collection_documents WHERE collection_id = $1)`, [collectionId]);
  }

  async removeDocument(collectionId: string, documentId: string): Promise<boolean> {
    return (await this.db.query(`DELETE FROM collection_documents WHERE collection_id = $1 AND document_id = $2`, [collectionId, documentId])).rowCount > 0;
  }

  async delete(collectionId: string): Promise<boolean> {
    return (await this.db.query(`DELETE FROM collections WHERE id = $1`, [collectionId])).rowCount > 0;
  }

  async find(idOrName: string): Promise<CollectionRecord | null> {
    const { rows } = await this.db.query<CollectionRow>(`${SELECT_COLLECTION} WHERE c.id = $1 OR c.name = $1 LIMIT 1`, [idOrName]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(offset: number, limit: number): Promise<{ items: CollectionRecord[]; total: number }> {
    const { rows } = await this.db.query<CollectionRow>(`${SELECT_COLLECTION} ORDER BY c.created_at COLLATE "C" DESC, c.id COLLATE "C" LIMIT $1 OFFSET $2`, [
      limit,
      offset,
    ]);
    const total = (await this.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM collections`)).rows[0]!.n;
    return { items: rows.map(toRecord), total };
  }
}
