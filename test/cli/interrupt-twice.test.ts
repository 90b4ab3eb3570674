import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("../helpers/interruptible-child.ts", import.meta.url));

/**
 * Runs the child with work of `workMs`, sending SIGINT when it says "working" and, if `twice`,
 * again once it says "aborted" (the first handled, its step still under way): two signals, never
 * one pending signal absorbing another.
 */
function run(
  workMs: number,
  twice: boolean,
  notes = "text",
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  const env = { ...process.env, WORK_MS: String(workMs), NOTES: notes };
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    const before = stdout;
    stdout += d;
    if (!before.includes("working") && stdout.includes("working")) child.kill("SIGINT");
    if (twice && !before.includes("aborted") && stdout.includes("aborted")) child.kill("SIGINT");
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started })));
}

test("a second Ctrl-C while the first waits for the step under way stops at once, says what that means, and exits 130", { timeout: 60_000 }, async () => {
  const twice = await run(30_000, true);
  assert.equal(twice.signal, null, "ended by our own exit, not killed by the signal");
  assert.equal(twice.code, 130, twice.stderr);
  assert.ok(twice.ms < 20_000, `it did not wait for the step under way (${twice.ms} ms)`);
  assert.equal(twice.stdout, "working\naborted\n", "the work never returned");
  assert.equal(
    twice.stderr,
    "\nchunkeval: Ctrl-C: stopping after the step under way; Ctrl-C again to stop now.\n" +
      "\nchunkeval: second Ctrl-C: stopping now, without finishing the step under way. What was stored before it is kept " +
      "and nothing is left half-written (the step is simply not stored); run the same command again to resume.\n",
  );

  // Under --progress json the same two Ctrl-C are JSON lines, and the last one says the run ended.
  const json = await run(30_000, true, "json");
  assert.equal(json.code, 130, json.stderr);
  const events = json.stderr
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { event: string; ok?: boolean; interrupted?: boolean });
  assert.deepEqual(
    events.map((e) => e.event),
    ["note", "note", "end"],
  );
  assert.deepEqual(events.at(-1), { event: "end", ok: false, interrupted: true });

  // One Ctrl-C: acknowledged at once, then the step under way is waited for and the work reports it was interrupted.
  const once = await run(1_000, false);
  assert.equal(once.code, 0, once.stderr);
  assert.equal(once.stdout, 'working\naborted\n{"interrupted":true} listeners=1\n');
  assert.equal(once.stderr, "\nchunkeval: Ctrl-C: stopping after the step under way; Ctrl-C again to stop now.\n");
  // No Ctrl-C: the listener is gone with the work, so a later Ctrl-C is Node's own again.
  const none = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD], { env: { ...process.env, WORK_MS: "10" }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.on("close", () => resolve(out));
  });
  assert.equal(none, 'working\n{"interrupted":false,"value":"done"} listeners=0\n');
});
