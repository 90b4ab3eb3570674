import type { CollectionRecord } from "../../domain/types.js";
import type { Db } from "./database.js";
import { ConflictError } from "../../errors.js";

interface CollectionRow {
  id: string;
  name: string;
  created_at: string;
}

/** Rows of `collections` and `collection_documents` <-> collection records. */
export class SqliteCollectionsRepo {
  constructor(private readonly db: Db) {}

  /** Creates the collection, or finds the one that already has this name; `created` says which. */
  ensure(id: string, name: string, createdAt: string): { id: string; created: boolean } {
    const created =
      this.db.prepare(`INSERT INTO collections (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`).run(id, name, createdAt).changes > 0;
    return { id: (this.db.prepare(`SELECT id FROM collections WHERE name = ?`).get(name) as { id: string }).id, created };
  }

  /**
   * Adds documents at the end, in the given order, each under its name in the collection; a
   * document already in it keeps its place and name. A name another document of the collection
   * has is a conflict, and then nothing is added (references name documents by file name).
   * Returns the ids it added. Immediate, so that a writer in another process waits for it
   * rather than failing on a stale snapshot.
   */
  addDocuments(collectionId: string, members: Array<{ id: string; filename: string }>): string[] {
    const next = this.db.prepare(`SELECT COALESCE(MAX(position) + 1, 0) AS n FROM collection_documents WHERE collection_id = ?`);
    const holder = this.db.prepare(`SELECT document_id FROM collection_documents WHERE collection_id = ? AND filename = ?`);
    const present = this.db.prepare(`SELECT 1 FROM collection_documents WHERE collection_id = ? AND document_id = ?`);
    const put = this.db.prepare(`INSERT INTO collection_documents (collection_id, document_id, filename, position) VALUES (?, ?, ?, ?)`);
    return this.db
      .transaction(() => {
        const added: string[] = [];
        let position = (next.get(collectionId) as { n: number }).n;
        for (const { id, filename } of members) {
          if (present.get(collectionId, id)) continue;
          const other = holder.get(collectionId, filename) as { document_id: string } | undefined;
          if (other)
            throw new ConflictError(`the collection already has a document named ${filename} (${other.document_id}); rename the file or remove that one first`);
          put.run(collectionId, id, filename, position++);
          added.push(id);
        }
        return added;
      })
      .immediate();
  }

  /** Deletes a collection this caller created, unless it has members (another caller filled it meanwhile). */
  deleteIfEmpty(collectionId: string): void {
    this.db
      .prepare(`DELETE FROM collections WHERE id = ? AND NOT EXISTS (SELECT 1 FROM collection_documents WHERE collection_id = ?)`)
      .run(collectionId, collectionId);
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
    const rows = this.db
      .prepare(
        `SELECT m.document_id AS id, m.filename, d.warnings_json FROM collection_documents m JOIN documents d ON d.id = m.document_id
         WHERE m.collection_id = ? ORDER BY m.position`,
      )
      .all(row.id) as Array<{ id: string; filename: string; warnings_json: string | null }>;
    const documents = rows.map((d) => ({ id: d.id, filename: d.filename, ...(d.warnings_json ? { warnings: JSON.parse(d.warnings_json) as string[] } : {}) }));
    return { id: row.id, name: row.name, documents, createdAt: row.created_at };
  }
}
