import { spawn, type ChildProcess } from "node:child_process";
import { constants as osConstants } from "node:os";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/chunkeval.js", import.meta.url));

/** Set by scripts/run-tests.mjs: the run's embedding cache, warmed once with the bundled model's vectors of the example documents. */
export const RUN_CACHE_DIR = "CHUNKEVAL_TEST_CACHE_DIR";

/**
 * The cache folder a test's chunkeval should use: the run's warm one unless the test names its
 * own (a test whose subject is the cache keeps a private folder), or nothing outside the runner.
 */
export function sharedCacheDir(own: string | undefined): string | undefined {
  return own ?? process.env[RUN_CACHE_DIR];
}

/**
 * The environment of a chunkeval child process: this one's, embedding on the main thread (tests
 * run side by side on two cores), the run's warm embedding cache, then the test's own.
 */
export function childEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const cacheDir = sharedCacheDir(env.CHUNKEVAL_CACHE_DIR);
  return { ...process.env, CHUNKEVAL_EMBEDDER_WORKERS: "0", ...(cacheDir ? { CHUNKEVAL_CACHE_DIR: cacheDir } : {}), ...env };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Variables that native dependencies read from the process's own environment, not from the
 * configuration chunkeval passes (LanceDB's object-store credentials and endpoint): a run that
 * sets them needs a process of its own.
 */
const READ_FROM_PROCESS_ENV = /^(AWS_|GOOGLE_|AZURE_|LANCE)/;

/**
 * Runs the CLI with no terminal on stdin, as CI does: in this process (the real program, `main`
 * of src/transports/cli/run.ts, with its own environment and output collectors), so that a test
 * file's runs share the loaded application instead of each starting node, SQLite, LanceDB and the
 * tokenizer tables again. With `cwd`, this process's working directory is `cwd` while the run
 * lasts (relative paths resolve against it, as in a process started there), one such run at a
 * time. With variables of READ_FROM_PROCESS_ENV set otherwise than in this process, it runs the
 * built CLI in a process of its own, as runCliProcess does.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<CliResult> {
  // (A variable this process has with the same value, as in a caller's `...process.env`, needs no process of its own.)
  if (Object.entries(env).some(([name, value]) => READ_FROM_PROCESS_ENV.test(name) && process.env[name] !== value)) return runCliProcess(args, env, cwd);
  return cwd === undefined ? runCliInProcess(args, env) : inDirectory(cwd, () => runCliInProcess(args, env));
}

/** The end of the last run inside a working directory of its own: the next one waits for it (a process has one working directory). */
let directoryRuns: Promise<unknown> = Promise.resolve();

function inDirectory<T>(cwd: string, run: () => Promise<T>): Promise<T> {
  const result = directoryRuns.then(async () => {
    const before = process.cwd();
    process.chdir(cwd);
    try {
      return await run();
    } finally {
      process.chdir(before);
    }
  });
  directoryRuns = result.catch(() => undefined);
  return result;
}

/** Runs the built CLI (bin/chunkeval.js) in a process of its own: for tests whose subject is the process (exit, signals, start-up, several processes). */
export function runCliProcess(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<CliResult> {
  return startCli(args, env, cwd).result;
}

/** A stream that keeps what is written to it (no terminal: isTTY is unset, as in a pipe). */
class Collector extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

async function runCliInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const { main } = await import("../../src/transports/cli/run.js");
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await main(["node", BIN, ...args], { stdout, stderr, env: childEnv({ COLUMNS: "400", ...env }), stdinIsTTY: false, exitCode: undefined });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Starts the built CLI like runCli, returning the child too (to signal it) and, once it ends, its result. */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
  nodeOptions: string[] = [],
): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [...nodeOptions, BIN, ...args], {
    cwd,
    // COLUMNS: output fits the width (80-100 without a terminal); tests that read one record per
    // line get a wide one, and the tests of the layout set their own.
    env: childEnv({ COLUMNS: "400", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const result = new Promise<CliResult>((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    child.on("error", reject);
    // Killed by a signal: the code a shell reports (128 + its number).
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : -1), stdout, stderr }));
  });
  return { child, result };
}
