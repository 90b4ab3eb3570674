import pg from "pg";
import { ServerBusyError } from "../../errors.js";

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

/** How a process's PostgreSQL connections behave (docs/deployment.md "Connections to PostgreSQL"). */
export interface PoolSettings {
  /** Connections of the process's one pool (postgres_pool_size). */
  size: number;
  /** Waiting for a connection (the server, or a free one of the pool) longer than this fails. */
  connectTimeoutMs: number;
  /** Waiting for a row lock longer than this fails the statement: a clear 503, not a stuck request. */
  lockTimeoutMs: number;
  /** A statement running longer than this is cancelled by the server. */
  statementTimeoutMs: number;
}

export const POOL_DEFAULTS: PoolSettings = { size: 10, connectTimeoutMs: 10_000, lockTimeoutMs: 5_000, statementTimeoutMs: 120_000 };
let poolSettings: PoolSettings = POOL_DEFAULTS;

/** Sets the pool size and timeouts of pools opened from now on (the composition root, from the configuration). */
export function configurePools(settings: Partial<PoolSettings>): void {
  poolSettings = { ...POOL_DEFAULTS, ...settings };
}

const pools = new Map<string, { pool: pg.Pool; users: number }>();

/**
 * The job queue's own small pool (its LISTEN connection, claims and lease renewals): a lease must
 * be renewed on time however busy the data pool is with the jobs' own work, or the job is taken
 * over (a benchmark whose lease could not be renewed behind its units' queries failed 3 times).
 */
export const QUEUE_POOL_SIZE = 3;

/**
 * The process's pools for a database: one for data (`purpose` "data"), shared by the metadata
 * store and the originals, of `postgres_pool_size` connections, and one of QUEUE_POOL_SIZE for the
 * job queue (each of the three used to open its own ten: one `serve` held 19 in a small burst,
 * and four replicas passed PostgreSQL's default of 100). Each caller gets a handle whose `end()`
 * gives its share back; a pool closes when the last one does.
 */
export function createPool(uri: string, purpose: "data" | "queue" = "data"): pg.Pool {
  const key = `${purpose} ${uri}`;
  let entry = pools.get(key);
  if (!entry) {
    const pool = new pg.Pool({
      connectionString: uri,
      types,
      max: purpose === "queue" ? QUEUE_POOL_SIZE : poolSettings.size,
      connectionTimeoutMillis: poolSettings.connectTimeoutMs,
      lock_timeout: poolSettings.lockTimeoutMs,
      statement_timeout: poolSettings.statementTimeoutMs,
    });
    // An idle connection that the server ends (a restart, a killed backend) must not crash the process.
    pool.on("error", () => {});
    entry = { pool, users: 0 };
    pools.set(key, entry);
  }
  entry.users++;
  const shared = entry;
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    if (--shared.users > 0) return;
    if (pools.get(key) === shared) pools.delete(key);
    await shared.pool.end();
  };
  return new Proxy(shared.pool, {
    get(target, property) {
      if (property === "end") return end;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * A statement refused for load (PostgreSQL's 55P03 and 57014) (a row locked elsewhere past lock_timeout, a statement past
 * statement_timeout, no connection within the connect timeout) is the client's 503 to retry,
 * not a 500 nor a request that hangs.
 */
function asBusy(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : "";
  if (code === "55P03")
    return new ServerBusyError(`the database is busy: a row this needs is locked by another operation for over ${poolSettings.lockTimeoutMs / 1000} s; retry`, {
      cause: error,
    });
  if (code === "57014")
    return new ServerBusyError(`the database is busy: a statement ran over ${poolSettings.statementTimeoutMs / 1000} s; retry`, { cause: error });
  // The pool's wait for a free connection, or the server's answer to a new one (pg's client).
  if (/timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(message)) {
    return new ServerBusyError(
      `the database is busy: no connection within ${poolSettings.connectTimeoutMs / 1000} s (postgres_pool_size ${poolSettings.size}); retry`,
      { cause: error },
    );
  }
  return error;
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
  try {
    const result = await client.query(sql, params?.map(withoutNul));
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  } catch (error) {
    throw asBusy(error);
  }
}

export class PoolExecutor implements Executor {
  constructor(private readonly pool: pg.Pool) {}

  query<R>(sql: string, params?: unknown[]): Promise<Rows<R>> {
    return run<R>(this.pool, sql, params);
  }

  async atomic<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw asBusy(error);
    });
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
