/**
 * Runs work that Ctrl-C stops cleanly: the first SIGINT aborts the signal the work is given, so
 * it stops at its next step with what it committed kept and the data directory closed as usual;
 * the handler is then gone, so a second Ctrl-C stops the process at once (Node's default).
 * Returns whether the work was interrupted, or its value; an error is the work's own unless
 * Ctrl-C came first (then the error is only how the work stopped).
 */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<{ interrupted: true } | { interrupted: false; value: T }> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  try {
    return { interrupted: false, value: await work(controller.signal) };
  } catch (error) {
    if (controller.signal.aborted) return { interrupted: true };
    throw error;
  } finally {
    process.off("SIGINT", stop);
  }
}
