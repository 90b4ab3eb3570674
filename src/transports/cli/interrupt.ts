import { ExitCode } from "../../errors.js";
import { printJsonEvent, printNote } from "./output.js";
import { cliIo } from "./io.js";

/**
 * What a second Ctrl-C says before the process ends. It is true because the stores are
 * crash-safe (test/e2e/kill9.test.ts kills at random points): rows are written in SQLite
 * transactions, and a strategy's chunks and vectors stay a pending generation until one
 * transaction makes them current, a pending one whose writer is gone being cleared at the next
 * start; so a step cut short is as if it never started.
 */
export const STOPPING_NOW =
  "chunkeval: second Ctrl-C: stopping now, without finishing the step under way. What was stored before it is kept " +
  "and nothing is left half-written (the step is simply not stored); run the same command again to resume.";

/** What the first Ctrl-C says at once: the step under way may take a while to finish (a long document, a slow model). */
export const STOPPING_AFTER_STEP = "chunkeval: Ctrl-C: stopping after the step under way; Ctrl-C again to stop now.";

/**
 * Runs work that Ctrl-C stops cleanly: the first SIGINT says so at once and aborts the signal the
 * work is given, so it stops at its next step with what it committed kept and the data directory closed as usual.
 * A second SIGINT, while that winds down, says so and ends the process at once (exit 130). One
 * listener handles both, kept after an interrupt for the rest of the process: removing and adding
 * listeners between two quick signals could drop the second. Returns whether the work was
 * interrupted, or its value; an error is the work's own unless Ctrl-C came first (then the error
 * is only how the work stopped).
 */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<{ interrupted: true } | { interrupted: false; value: T }> {
  const controller = new AbortController();
  const onSigint = () => {
    if (!controller.signal.aborted) {
      printNote(`\n${STOPPING_AFTER_STEP}`);
      return controller.abort();
    }
    printNote(`\n${STOPPING_NOW}`);
    // A reader of --progress json gets its last event: the run ended, not well.
    if (cliIo().notes === "json") printJsonEvent({ event: "end", ok: false, interrupted: true });
    // The one exit outside main(): waiting for the wind-down is what the user just declined.
    process.exit(ExitCode.interrupted);
  };
  process.on("SIGINT", onSigint);
  try {
    return { interrupted: false, value: await work(controller.signal) };
  } catch (error) {
    if (controller.signal.aborted) return { interrupted: true };
    throw error;
  } finally {
    if (!controller.signal.aborted) process.off("SIGINT", onSigint);
  }
}
