import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

/**
 * How many uploaded originals of one kind (`files`: documents, `objects`: /v1 versions) are
 * stored, wherever the metadata store keeps them: rows of PostgreSQL's `originals` table, or the
 * files of `DATA_DIR/<kind>/` beside a SQLite store.
 */
export async function storedOriginals(config: { metadataStoreUri: string; dataDir: string }, kind: "files" | "objects"): Promise<number> {
  if (/^postgres(ql)?:\/\//i.test(config.metadataStoreUri)) {
    const client = new pg.Client({ connectionString: config.metadataStoreUri });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM originals WHERE location LIKE $1`, [`postgres:originals/${kind}/%`]);
      return Number(rows[0]!.n);
    } finally {
      await client.end();
    }
  }
  const folder = join(config.dataDir, kind);
  return existsSync(folder) ? readdirSync(folder).length : 0;
}
