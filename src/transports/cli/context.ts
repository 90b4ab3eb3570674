import type { Command } from "commander";
import type { ProgressMode } from "./progress.js";
import { loadConfig, type LoadedConfig } from "../../config/load.js";
import { open } from "node:fs/promises";
import { DEFAULTS } from "../../config/defaults.js";
import { ChunkingError, NotFoundError, PayloadTooLargeError, ValidationError } from "../../errors.js";
import { printNote } from "./output.js";
import { cliIo } from "./io.js";
import type { Chunkeval } from "../../api/index.js";

export interface GlobalOptions {
  dataDir?: string;
  config?: string;
  embedder?: string;
  generator?: string;
  strategyModule?: string[];
  quiet?: boolean;
  json?: boolean;
  progress?: ProgressMode;
}

/** Loads the configuration from the command's global flags; invalid values are a usage error. */
export function loadCliConfig(command: Command): LoadedConfig {
  const o = command.optsWithGlobals<GlobalOptions>();
  const loaded = loadConfig({
    env: cliIo().env,
    configFile: o.config,
    flags: { data_dir: o.dataDir, embedder: o.embedder, generator: o.generator, strategy_modules: o.strategyModule },
  });
  if (loaded.errors.length > 0) throw new ValidationError(`invalid configuration: ${loaded.errors.join("; ")}`);
  if (!o.json && !o.quiet) for (const w of loaded.warnings) printNote(`chunkeval: warning: ${w}`);
  return loaded;
}

/** Runs an action with a chunkeval instance built from the flags, closing it afterwards. */
export async function withChunkeval<T>(command: Command, action: (app: Chunkeval) => Promise<T>): Promise<T> {
  // Loaded on demand so `--help` and usage errors do not pay for the whole core.
  const { createChunkeval } = await import("../../api/create.js");
  const app = await createChunkeval(loadCliConfig(command).config);
  try {
    return await action(app);
  } finally {
    await app.close();
  }
}

/** Parses a whole-number flag, rejecting anything else as bad usage. */
export function parseInteger(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new ValidationError(`${name} must be a whole number (0 or more), got "${value}"`);
    return n;
  };
}

/** Adds the list commands' --offset and --limit options. */
export function addPagingOptions(command: Command, noun: string): Command {
  return command
    .option("--offset <n>", `skip this many ${noun}`, parseInteger("--offset"), 0)
    .option("--limit <n>", `show at most this many (max ${DEFAULTS.maxListLimit})`, parseInteger("--limit"), DEFAULTS.listLimit);
}

export function checkPage(page: { offset: number; limit: number }): { offset: number; limit: number } {
  if (page.limit < 1 || page.limit > DEFAULTS.maxListLimit) throw new ValidationError(`--limit must be from 1 to ${DEFAULTS.maxListLimit}`);
  // The HTTP API's bound too: past it a number is no longer an exact integer for SQLite.
  if (page.offset > DEFAULTS.maxListOffset) throw new ValidationError(`--offset must be from 0 to ${DEFAULTS.maxListOffset}`);
  return page;
}

/**
 * Reads a document named on the command line, never more than `max_upload_mb`: a regular file
 * is refused by its size, and anything else (a pipe, /dev/zero) is read only until it passes
 * the limit. An unreadable file is an error naming it; a missing one is not found (exit 3), as
 * `bench` says of an argument that is neither a file nor a stored document.
 */
export async function readInputFile(path: string, maxUploadMb: number): Promise<Buffer> {
  const maxBytes = maxUploadMb * 1024 * 1024;
  const tooLarge = () => new PayloadTooLargeError(`${path}: the file is larger than max_upload_mb (${maxUploadMb} MB)`);
  const unreadable = (error: NodeJS.ErrnoException) =>
    error.code === "ENOENT"
      ? new NotFoundError(`${path}: no such file (ENOENT)`)
      : new ChunkingError(`${path}: cannot read the file (${error.code ?? error.message})`);
  const handle = await open(path, "r").catch((error: NodeJS.ErrnoException) => {
    throw unreadable(error);
  });
  try {
    const stat = await handle.stat();
    if (stat.isFile() && stat.size > maxBytes) throw tooLarge();
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null).catch((error: NodeJS.ErrnoException) => {
        throw unreadable(error);
      });
      if (bytesRead === 0) break;
      parts.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooLarge();
    }
    return Buffer.concat(parts, total);
  } finally {
    await handle.close();
  }
}

const READ_CHUNK_BYTES = 1024 * 1024;
