import { spawn, type ChildProcess } from "node:child_process";
import { constants as osConstants } from "node:os";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/chunkeval.js", import.meta.url));

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
    env: { ...process.env, CHUNKEVAL_EMBEDDER_WORKERS: "0", COLUMNS: "400", ...env },
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
