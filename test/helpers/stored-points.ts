import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Table } from "@lancedb/lancedb";

/**
 * Reads the /v1 points collection on disk with LanceDB directly (what a failure path must leave
 * behind is checked in the store itself, not through chunkeval); `empty` when it was never created.
 */
async function readChunksTable<T>(dataDir: string, read: (table: Table) => Promise<T>, empty: T): Promise<T> {
  const folder = join(dataDir, "lancedb", "v1");
  if (!existsSync(folder)) return empty;
  const lancedb = await import("@lancedb/lancedb");
  const db = await lancedb.connect(folder);
  try {
    if (!(await db.tableNames()).includes("chunks")) return empty;
    const table = await db.openTable("chunks");
    try {
      return await read(table);
    } finally {
      table.close();
    }
  } finally {
    db.close();
  }
}

/** Rows in the /v1 points collection, live or hidden (or those matching `where`). */
export function storedPointRows(dataDir: string, where?: string): Promise<number> {
  return readChunksTable(dataDir, (t) => t.countRows(where), 0);
}

/** The file name and version of every live (not hidden) point in the /v1 collection. */
export function liveStoredPoints(dataDir: string): Promise<Array<{ filename: string; version: number }>> {
  return readChunksTable(
    dataDir,
    async (t) => {
      const rows = (await t.query().where("deleted = false").select(["filename", "version"]).toArray()) as Array<{ filename: string; version: number }>;
      return rows.map((r) => ({ filename: r.filename, version: Number(r.version) }));
    },
    [],
  );
}
