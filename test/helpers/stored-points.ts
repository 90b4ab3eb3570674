import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Table } from "@lancedb/lancedb";

/**
 * Reads every table of /v1 points on disk with LanceDB directly (what a failure path must leave
 * behind is checked in the store itself, not through chunkeval): each tenant's table, and the
 * `chunks` collection, which holds points only in data directories from before tenant tables.
 */
async function readPointTables<T>(dataDir: string, read: (table: Table) => Promise<T[]>): Promise<T[]> {
  const folder = join(dataDir, "lancedb", "v1");
  if (!existsSync(folder)) return [];
  const lancedb = await import("@lancedb/lancedb");
  const db = await lancedb.connect(folder);
  try {
    const found: T[] = [];
    for (const name of (await db.tableNames()).filter((n) => n === "chunks" || n.startsWith("points_"))) {
      const table = await db.openTable(name);
      try {
        found.push(...(await read(table)));
      } finally {
        table.close();
      }
    }
    return found;
  } finally {
    db.close();
  }
}

/** Rows in the /v1 points tables, live or hidden (or those matching `where`). */
export async function storedPointRows(dataDir: string, where?: string): Promise<number> {
  return (await readPointTables(dataDir, async (t) => [await t.countRows(where)])).reduce((a, b) => a + b, 0);
}

/** The file name and version of every live (not hidden) point in the /v1 points tables. */
export function liveStoredPoints(dataDir: string): Promise<Array<{ filename: string; version: number }>> {
  return readPointTables(dataDir, async (t) => {
    const rows = (await t.query().where("deleted = false").select(["filename", "version"]).toArray()) as Array<{ filename: string; version: number }>;
    return rows.map((r) => ({ filename: r.filename, version: Number(r.version) }));
  });
}
