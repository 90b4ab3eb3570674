import pg from "pg";

export interface Rows<R> {
  rows: R[];
  rowCount: number;
}

/**
 * Where a repository's SQL runs: the pool (each statement on whichever connection is free) or
 * one connection inside a transaction. `atomic` runs several statements as one unit: a
 * transaction on one pooled connection, or a savepoint when already inside one, so a repository
 * operation is atomic whether it runs alone or inside MetadataStore.transaction.
 */
export interface Executor {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Rows<R>>;
  atomic<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
}

/**
 * BIGINT (counts, millisecond times, identities) as JavaScript numbers: every value the schema
 * keeps in one is far below 2^53. node-postgres returns strings for them by default.
 */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export function createPool(uri: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: uri, types });
  // An idle connection that the server ends (a restart, a killed backend) must not crash the process.
  pool.on("error", () => {});
  return pool;
}

/**
 * PostgreSQL's text cannot hold the NUL character (SQLite's can), and refuses a parameter with
 * one. It becomes U+FFFD: a lookup by an id with one finds nothing (no stored value has one), as
 * on SQLite, instead of failing; stored text keeps its length and offsets.
 */
function withoutNul(value: unknown): unknown {
  if (typeof value === "string") return value.includes("\u0000") ? value.replaceAll("\u0000", "\ufffd") : value;
  if (Array.isArray(value)) return value.map(withoutNul);
  return value;
}

async function run<R>(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]): Promise<Rows<R>> {
  const result = await client.query(sql, params?.map(withoutNul));
  return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
}

export class PoolExecutor implements Executor {
  constructor(private readonly pool: pg.Pool) {}

  query<R>(sql: string, params?: unknown[]): Promise<Rows<R>> {
    return run<R>(this.pool, sql, params);
  }

  async atomic<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      try {
        const value = await fn(new TransactionExecutor(client));
        await client.query("COMMIT");
        return value;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      }
    } finally {
      // A connection whose rollback failed is in an unknown state: the pool discards it.
      client.release(broken);
    }
  }
}

class TransactionExecutor implements Executor {
  private savepoints = 0;

  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, params?: unknown[]): Promise<Rows<R>> {
    return run<R>(this.client, sql, params);
  }

  async atomic<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    const name = `s${++this.savepoints}`;
    await this.client.query(`SAVEPOINT ${name}`);
    try {
      const value = await fn(this);
      await this.client.query(`RELEASE SAVEPOINT ${name}`);
      return value;
    } catch (error) {
      await this.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  }
}
