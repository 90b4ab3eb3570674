import pg from "pg";
import { openDatabase } from "../../src/stores/sqlite/database.js";

/**
 * Runs SQL straight on the metadata store at `uri`, whichever adapter it is, as an older
 * chunkeval or an operator would have written it: for tests that set up rows the current code
 * never writes. The SQL must read the same in SQLite and PostgreSQL.
 */
export async function runRawSql(uri: string, sql: string): Promise<void> {
  if (/^postgres(ql)?:\/\//i.test(uri)) {
    const client = new pg.Client({ connectionString: uri });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
    return;
  }
  const db = openDatabase(uri.replace(/^sqlite:\/\//i, ""));
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}
