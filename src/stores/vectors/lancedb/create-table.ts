import type { Connection, Table } from "@lancedb/lancedb";

/** How long the loser of a creation race waits for the winner's table to open (20 × 50 ms). */
const OPEN_ATTEMPTS = 20;
const OPEN_RETRY_MS = 50;

/**
 * Creates a table, or opens it when another process sharing the store created it first. The
 * loser of that race can find the winner's folder before its first version is committed, and
 * opening it then fails for a moment (seen once in CI as two `process` runs' first writes
 * failing together), so opening is retried briefly. A creation that failed for another reason
 * leaves no table to open, and its own error is thrown once the retries are spent.
 */
export async function createOrOpenTable(db: Connection, name: string, create: () => Promise<Table>): Promise<{ table: Table; created: boolean }> {
  try {
    return { table: await create(), created: true };
  } catch (error) {
    for (let attempt = 1; ; attempt++) {
      try {
        return { table: await db.openTable(name), created: false };
      } catch {
        if (attempt >= OPEN_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, OPEN_RETRY_MS));
      }
    }
  }
}

/** LanceDB's message for a table folder with no committed version (it names no error type). */
const NO_COMMITTED_VERSION = /Dataset at path .* was not found/;

/**
 * Opens a listed table, or null when it has no committed version yet: another process is
 * creating it (its folder is listed before the first commit), a process was killed while
 * creating it, or it was dropped meanwhile. Such a table holds no row anyone committed, and the
 * next creation writes over the folder. Any other failure (unreachable, corrupt) is thrown.
 */
export async function openCommittedTable(db: Connection, name: string): Promise<Table | null> {
  try {
    return await db.openTable(name);
  } catch (error) {
    if (error instanceof Error && NO_COMMITTED_VERSION.test(error.message)) return null;
    throw error;
  }
}
