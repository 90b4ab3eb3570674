import type pg from "pg";
import type { OriginalsStore } from "../../domain/ports/originals.js";
import { createPool } from "../postgres/executor.js";
import { LocalDiskOriginals } from "./local-disk.js";

/** How a location in the `originals` table is written in a metadata row, told apart from a path on disk. */
const PREFIX = "postgres:originals/";

/**
 * Originals in the PostgreSQL metadata database (the `originals` table, migration 5), so every
 * replica reads and removes them. Why there and not in the vector store's object storage: every
 * replica of a deployment already reaches this database (and only it: `vector_store_uri` may be
 * a shared local path), LanceDB gives no access to its object store for other files, and a
 * client for each of S3, GCS and Azure would be three new dependencies. An upload is at most
 * `max_upload_mb` (25 MB by default), far below `bytea`'s 1 GB. A location from before (a path
 * on the disk of the replica that received the upload) is still removed from that disk.
 */
export class PostgresOriginals implements OriginalsStore {
  private readonly pool: pg.Pool;
  private readonly earlier: LocalDiskOriginals;

  constructor(uri: string, dataDir: string) {
    this.pool = createPool(uri);
    this.earlier = new LocalDiskOriginals(dataDir);
  }

  async put(name: string, bytes: Buffer): Promise<string> {
    const location = PREFIX + name;
    await this.pool.query(
      `INSERT INTO originals (location, bytes, stored_at_ms) VALUES ($1, $2, $3)
       ON CONFLICT (location) DO UPDATE SET bytes = EXCLUDED.bytes, stored_at_ms = EXCLUDED.stored_at_ms`,
      [location, bytes, Date.now()],
    );
    return location;
  }

  async read(location: string): Promise<Buffer | null> {
    if (!location.startsWith(PREFIX)) return this.earlier.read(location);
    const { rows } = await this.pool.query<{ bytes: Buffer }>(`SELECT bytes FROM originals WHERE location = $1`, [location]);
    return rows[0]?.bytes ?? null;
  }

  async remove(location: string): Promise<void> {
    if (!location.startsWith(PREFIX)) return this.earlier.remove(location);
    await this.pool.query(`DELETE FROM originals WHERE location = $1`, [location]);
  }

  /**
   * The table's originals. Not this replica's disk: files there may be another store's (a SQLite
   * workspace in the same data directory), and doctor must not judge them against these rows.
   */
  async list(): Promise<Array<{ location: string; storedAtMs: number }>> {
    const { rows } = await this.pool.query<{ location: string; stored_at_ms: string }>(`SELECT location, stored_at_ms FROM originals`);
    return rows.map((r) => ({ location: r.location, storedAtMs: Number(r.stored_at_ms) }));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
