import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { startCli } from "./cli.js";

const DEADLINE_MS = 60_000;

/** Polls `read` every 50 ms until `done` holds of its value; fails with the last value after the deadline. */
export async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, deadlineMs = DEADLINE_MS): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - start > deadlineMs) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a long-running CLI command and waits for the stderr line that says it is ready. */
export async function startLongRunning(args: string[], env: NodeJS.ProcessEnv, ready: RegExp) {
  const started = startCli(args, env);
  let stderr = "";
  started.child.stderr!.on("data", (d) => (stderr += d));
  const match = await waitFor(
    `${args[0]} to start`,
    async () => (started.child.exitCode !== null ? "exited" : stderr.match(ready)),
    (m) => m !== null,
  );
  assert.notEqual(match, "exited", `${args[0]} exited: ${stderr}`);
  return { ...started, match: match as RegExpMatchArray, stderr: () => stderr };
}

/** SIGTERM, resolved once the process exited (at once if it already has). */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
