import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * Rows in the /v1 points collection on disk, live or hidden, read with LanceDB directly (what a
 * failure path must leave behind is checked in the store itself, not through chunkeval); 0 when
 * the collection was never created.
 */
export async function storedPointRows(dataDir: string, where?: string): Promise<number> {
  const folder = join(dataDir, "lancedb", "v1");
  if (!existsSync(folder)) return 0;
  const lancedb = await import("@lancedb/lancedb");
  const db = await lancedb.connect(folder);
  try {
    if (!(await db.tableNames()).includes("chunks")) return 0;
    const table = await db.openTable("chunks");
    const n = await table.countRows(where);
    table.close();
    return n;
  } finally {
    db.close();
  }
}

/** The file name and version of every live (not hidden) point in the /v1 collection on disk, read with LanceDB directly. */
export async function liveStoredPoints(dataDir: string): Promise<Array<{ filename: string; version: number }>> {
  const folder = join(dataDir, "lancedb", "v1");
  if (!existsSync(folder)) return [];
  const lancedb = await import("@lancedb/lancedb");
  const db = await lancedb.connect(folder);
  try {
    if (!(await db.tableNames()).includes("chunks")) return [];
    const table = await db.openTable("chunks");
    const rows = (await table.query().where("deleted = false").select(["filename", "version"]).toArray()) as Array<{ filename: string; version: number }>;
    table.close();
    return rows.map((r) => ({ filename: r.filename, version: Number(r.version) }));
  } finally {
    db.close();
  }
}
