import type { CollectionRecord } from "../../domain/types.js";
import type { Db } from "./database.js";

interface CollectionRow {
  id: string;
  name: string;
  created_at: string;
}

/** Rows of `collections` and `collection_documents` <-> collection records. */
export class CollectionsRepo {
  constructor(private readonly db: Db) {}

  /** Creates the collection, or returns the id of the one that already has this name. */
  ensure(id: string, name: string, createdAt: string): string {
    this.db.prepare(`INSERT INTO collections (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`).run(id, name, createdAt);
    return (this.db.prepare(`SELECT id FROM collections WHERE name = ?`).get(name) as { id: string }).id;
  }

  /** Adds documents at the end, in the given order; documents already in it keep their place. */
  addDocuments(collectionId: string, documentIds: string[]): void {
    const next = this.db.prepare(`SELECT COALESCE(MAX(position) + 1, 0) AS n FROM collection_documents WHERE collection_id = ?`);
    const put = this.db.prepare(`INSERT INTO collection_documents (collection_id, document_id, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`);
    this.db.transaction(() => {
      let position = (next.get(collectionId) as { n: number }).n;
      for (const documentId of documentIds) if (put.run(collectionId, documentId, position).changes > 0) position++;
    })();
  }

  removeDocument(collectionId: string, documentId: string): boolean {
    return this.db.prepare(`DELETE FROM collection_documents WHERE collection_id = ? AND document_id = ?`).run(collectionId, documentId).changes > 0;
  }

  delete(collectionId: string): boolean {
    return this.db.prepare(`DELETE FROM collections WHERE id = ?`).run(collectionId).changes > 0;
  }

  /** A collection by id or by name. */
  find(idOrName: string): CollectionRecord | null {
    const row = this.db.prepare(`SELECT * FROM collections WHERE id = ? OR name = ?`).get(idOrName, idOrName) as CollectionRow | undefined;
    return row ? this.toRecord(row) : null;
  }

  list(offset: number, limit: number): { items: CollectionRecord[]; total: number } {
    const rows = this.db.prepare(`SELECT * FROM collections ORDER BY created_at DESC, id LIMIT ? OFFSET ?`).all(limit, offset) as CollectionRow[];
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM collections`).get() as { n: number }).n;
    return { items: rows.map((r) => this.toRecord(r)), total };
  }

  private toRecord(row: CollectionRow): CollectionRecord {
    const documents = this.db
      .prepare(
        `SELECT d.id, d.filename FROM collection_documents c JOIN documents d ON d.id = c.document_id
         WHERE c.collection_id = ? ORDER BY c.position`,
      )
      .all(row.id) as Array<{ id: string; filename: string }>;
    return { id: row.id, name: row.name, documents, createdAt: row.created_at };
  }
}
