/**
 * One SQLite connection shared by every repository, serialised for async callers.
 *
 * better-sqlite3 runs each statement synchronously, so plain operations never interleave; but a
 * transaction whose callback awaits spans several turns of the event loop, and a statement
 * another async chain ran meanwhile on the same connection would land inside it (committed or
 * rolled back with the wrong work). So a transaction holds the connection from BEGIN to COMMIT
 * or ROLLBACK, and every other operation waits for it; operations also keep their call order.
 * When nothing is queued, a plain operation runs at once, in the caller's tick, as before.
 */
export class SerialConnection {
  /** Settles when the last queued holder releases the connection. */
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  /** Runs a synchronous operation on the connection, after any transaction open or queued before it. */
  async run<T>(op: () => T): Promise<T> {
    if (this.queued === 0) return op();
    return this.exclusive(async () => op());
  }

  /** Runs `fn` holding the connection: nothing queued behind it runs until it settles. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    this.queued++;
    try {
      await before;
      return await fn();
    } finally {
      this.queued--;
      release();
    }
  }
}

/** Runs operations on the connection: through its queue, or directly by the transaction holding it. */
export interface Executor {
  run<T>(op: () => T): Promise<T>;
}

/** Inside a transaction: the holder runs its statements directly. */
export const direct: Executor = { run: async (op) => op() };

/** A synchronous repository's public methods, each returning a promise of what it returned. */
export type Serialised<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

/**
 * A synchronous SQLite repository as its async port: every public method runs through `executor`.
 * The repository's SQL stays synchronous (one statement cannot interleave with another), and the
 * port's callers `await` it whatever the adapter.
 */
export function serialised<T extends object>(repo: T, executor: Executor): Serialised<T> {
  const out: Record<string, unknown> = {};
  for (let proto = Object.getPrototypeOf(repo); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = (repo as Record<string, unknown>)[name];
      if (name === "constructor" || name in out || typeof method !== "function") continue;
      out[name] = (...args: unknown[]) => executor.run(() => (method as (...a: unknown[]) => unknown).apply(repo, args));
    }
  }
  return out as Serialised<T>;
}
