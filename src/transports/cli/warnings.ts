import { printNote } from "./output.js";
/** Process warnings raised by dependencies' use of Node: notes to their developers that a user cannot act on. */
const DEPENDENCY_NOTES = new Set(["DeprecationWarning", "ExperimentalWarning"]);

/**
 * Replaces Node's printing of process warnings ("(node:4711) SomeWarning: …", then a hint about
 * --trace-warnings) with ours: chunkeval's own warnings (ChunkevalUpkeepWarning) as
 * `chunkeval: warning: <message>`, dependency notes left out, and any other warning (a
 * MaxListenersExceededWarning, which would point at a leak) still shown, in our form and named.
 */
export function showWarningsInOurWords(): void {
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    if (DEPENDENCY_NOTES.has(warning.name)) return;
    const text = warning.name.startsWith("Chunkeval") ? warning.message : `${warning.name}: ${warning.message}`;
    printNote(`chunkeval: warning: ${text}`);
  });
}
