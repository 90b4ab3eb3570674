// A pseudo-terminal that reports 0 columns and rows (`script`, some `docker run -t` and CI
// wrappers), and TERM=dumb: bench is written to as a log (no spinner), ends in its normal time and
// answers Ctrl-C and SIGTERM. Before the fix the spinner wrote hundreds of megabytes of cursor
// codes on a 0-column terminal and ignored both signals. `script` (util-linux) makes the terminal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, childEnv } from "../helpers/cli.js";
import { HANDBOOK_PATH } from "../helpers/documents.js";

const hasScript = spawnSync("script", ["--version"]).status === 0;

/** Signals the chunkeval process `script` started (its only child: the shell exec'd node), never another test's. */
function signalChunkeval(scriptPid: number, signal: NodeJS.Signals) {
  const pids = spawnSync("pgrep", ["-P", String(scriptPid)], { encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean);
  for (const pid of pids) {
    try {
      process.kill(Number(pid), signal);
    } catch {
      // already gone
    }
  }
}

/** The end of what the terminal showed, without its escape codes: a failure's message stays short. */
const tail = (output: string) => output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").slice(-800);

interface TerminalRun {
  code: number | null;
  output: string;
  seconds: number;
}

/**
 * Runs `chunkeval ARGS` on a pseudo-terminal of `stty` size `size`; `after` (ms) and `signal`:
 * Ctrl-C typed on the terminal ("INT", the terminal's own interrupt character) or SIGTERM sent
 * to chunkeval, that long after it printed its first progress.
 */
function onTerminal(args: string[], env: NodeJS.ProcessEnv, size: string, signal?: "INT" | "TERM"): Promise<TerminalRun> {
  const command = `stty ${size}; exec ${[process.execPath, BIN, ...args].map((a) => `'${a}'`).join(" ")}`;
  const started = performance.now();
  const child = spawn("script", ["-qec", command, "/dev/null"], { env: childEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  let signalled = false;
  const onData = (d: Buffer) => {
    output += d.toString("latin1");
    if (!signal || signalled || !/bench|process|embed|chunk/i.test(output)) return;
    signalled = true;
    setTimeout(() => {
      if (signal === "INT") child.stdin.write("\x03");
      else signalChunkeval(child.pid!, "SIGTERM");
    }, 300);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  // A hang must end the test, not the run: the terminal and chunkeval are killed after 120 s.
  const deadline = setTimeout(() => (signalChunkeval(child.pid!, "SIGKILL"), child.kill("SIGKILL")), 120_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(deadline);
      resolve({ code, output, seconds: (performance.now() - started) / 1000 });
    }),
  );
}

test("bench on a pseudo-terminal of 0 columns and rows, and under TERM=dumb: lines, no spinner, ends in its normal time", { skip: !hasScript }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-zero-cols-"));
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, JSON.stringify(JSON.parse(readFileSync("questions/harbor-light-handbook.json", "utf8")).slice(0, 4)));
    const bench = (data: string) => ["bench", HANDBOOK_PATH, "--questions", questions, "-s", "recursive,fixed_size", "--data-dir", join(dir, data)];
    const env = { CHUNKEVAL_EMBEDDER: "hash", COLUMNS: undefined, LINES: undefined };
    const normal = await onTerminal(bench("normal"), { ...env, TERM: "xterm-256color" }, "cols 80 rows 24");
    assert.equal(normal.code, 0, tail(normal.output));
    for (const [name, size, term] of [
      ["0 columns and rows", "cols 0 rows 0", "xterm-256color"],
      ["TERM=dumb", "cols 80 rows 24", "dumb"],
    ] as const) {
      const run = await onTerminal(bench(name.replace(/\W/g, "")), { ...env, TERM: term }, size);
      console.log(`# ${name}: ${run.seconds.toFixed(1)} s, ${run.output.length} bytes (an 80-column terminal: ${normal.seconds.toFixed(1)} s)`);
      assert.equal(run.code, 0, `${name}: ${tail(run.output)}`);
      assert.match(run.output, /verdict|composite/i, `${name}: the scorecard is printed`);
      // No spinner: no cursor movement or line erasing (ora hides the cursor and clears its line).
      assert.doesNotMatch(run.output, /\x1b\[\?25l|\x1b\[2K|\x1b\[1G/, `${name}: no spinner's cursor codes`);
      assert.ok(run.output.length < 200_000, `${name}: ${run.output.length} bytes written`);
      assert.ok(run.seconds < normal.seconds * 3 + 30, `${name}: ${run.seconds} s against ${normal.seconds} s on an 80-column terminal`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("on a 0-column terminal and under TERM=dumb, Ctrl-C stops bench (exit 130, acknowledged) and SIGTERM ends it", { skip: !hasScript }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-zero-cols-signal-"));
  try {
    const questions = join(dir, "q.json");
    writeFileSync(questions, readFileSync("questions/harbor-light-handbook.json"));
    const bench = (data: string) => ["bench", HANDBOOK_PATH, "--questions", questions, "-s", "all", "--data-dir", join(dir, data)];
    const env = { CHUNKEVAL_EMBEDDER: "hash", COLUMNS: undefined, LINES: undefined };
    for (const [name, size, term] of [
      ["0 columns and rows", "cols 0 rows 0", "xterm-256color"],
      ["TERM=dumb", "cols 80 rows 24", "dumb"],
    ] as const) {
      const data = name.replace(/\W/g, "");
      const interrupted = await onTerminal(bench(`${data}-int`), { ...env, TERM: term }, size, "INT");
      assert.equal(interrupted.code, 130, `${name}: ${tail(interrupted.output)}`);
      assert.match(interrupted.output, /Ctrl-C: stopping after the step under way/, `${name}: Ctrl-C is acknowledged`);
      assert.ok(interrupted.seconds < 60, `${name}: Ctrl-C: ended after ${interrupted.seconds} s`);
      const terminated = await onTerminal(bench(`${data}-term`), { ...env, TERM: term }, size, "TERM");
      assert.notEqual(terminated.code, 0, `${name}: ${tail(terminated.output)}`);
      assert.ok(terminated.seconds < 60, `${name}: SIGTERM: ended after ${terminated.seconds} s`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
