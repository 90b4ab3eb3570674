import { AsyncLocalStorage } from "node:async_hooks";
import type { Writable } from "node:stream";

/** An output stream of the CLI: the process's stdout or stderr, or a test's collector (no terminal). */
export type CliStream = Writable & { isTTY?: boolean; columns?: number; rows?: number };

/**
 * What one run of the CLI reads from and writes to: by default the process's own; a test runs
 * `main` in process with its own environment and collectors (test/helpers/cli.ts), so that one
 * test file's runs share the loaded application instead of each starting a process.
 */
export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  env: NodeJS.ProcessEnv;
  /** Whether stdin is a terminal (prompts and confirmations are asked only then). */
  readonly stdinIsTTY: boolean;
  /** The code the run ends with when its command finishes without an error (a failed gate: 4). */
  exitCode: number | undefined;
  /**
   * How notes, warnings and errors are written on stderr: `json` under `--progress json`, where
   * stderr is a stream of JSON objects a program reads line by line (one plain line would break
   * it); plain text otherwise (absent).
   */
  notes?: "text" | "json";
}

/** The process's own streams, environment and exit code. */
const PROCESS_IO: CliIo = {
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get env() {
    return process.env;
  },
  get stdinIsTTY() {
    return process.stdin.isTTY === true;
  },
  get exitCode() {
    return typeof process.exitCode === "number" ? process.exitCode : undefined;
  },
  set exitCode(code: number | undefined) {
    process.exitCode = code;
  },
  notes: "text",
};

const current = new AsyncLocalStorage<CliIo>();

/** The streams and environment of the CLI run under way (the process's outside any run). */
export function cliIo(): CliIo {
  return current.getStore() ?? PROCESS_IO;
}

/** Runs `work` with `io` as the CLI's streams and environment (the process's when none is given). */
export function withCliIo<T>(io: CliIo | undefined, work: () => Promise<T>): Promise<T> {
  return current.run(io ?? PROCESS_IO, work);
}

/**
 * Whether a spinner may be drawn on `stream`: a terminal with a size and cursor control. A
 * pseudo-terminal that reports 0 columns or rows (`script`, some `docker run -t` and CI wrappers)
 * or TERM=dumb is written to as a log: ora's redraws on a 0-column terminal never finish a line
 * and wrote hundreds of megabytes of cursor codes while signals went unanswered.
 */
export function drawsOn(stream: CliStream): boolean {
  const size = (n: number | undefined) => n !== undefined && Number.isFinite(n) && n > 0;
  return stream.isTTY === true && size(stream.columns) && size(stream.rows) && cliIo().env.TERM !== "dumb";
}
