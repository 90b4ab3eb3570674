import { spawn, type ChildProcess } from "node:child_process";
import { constants as osConstants } from "node:os";
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

/** Runs the built CLI (bin/chunkeval.js) with no terminal on stdin, as CI does. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<CliResult> {
  return startCli(args, env, cwd).result;
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
