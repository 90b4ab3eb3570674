/**
 * Maps `items` through `fn` with at most `limit` calls in flight, results in input order.
 * `beforeEach` runs before each call starts (a cancellation check, say); a rejection stops new
 * calls from starting and is rethrown once the calls in flight have settled.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  beforeEach?: () => void,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        beforeEach?.();
        out[i] = await fn(items[i]!, i);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  const settled = await Promise.allSettled(workers);
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (rejected) throw rejected.reason;
  return out;
}

/**
 * Lets the event loop run (timers, sockets) before the next piece of long synchronous work: the
 * bootstrap of a large benchmark takes seconds per strategy, and a server process running it would
 * otherwise answer nothing meanwhile (its kept-alive sockets then time out under its clients).
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
