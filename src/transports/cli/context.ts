import type { Command } from "commander";
import type { Chunkeval } from "../../chunkeval.js";
import { loadConfig, type LoadedConfig } from "../../config/load.js";
import { ValidationError } from "../../errors.js";

export interface GlobalOptions {
  dataDir?: string;
  config?: string;
  embedder?: string;
  generator?: string;
  quiet?: boolean;
  json?: boolean;
}

/** Loads the configuration from the command's global flags; invalid values are a usage error. */
export function loadCliConfig(command: Command): LoadedConfig {
  const o = command.optsWithGlobals<GlobalOptions>();
  const loaded = loadConfig({
    configFile: o.config,
    flags: { data_dir: o.dataDir, embedder: o.embedder, generator: o.generator },
  });
  if (loaded.errors.length > 0) throw new ValidationError(`invalid configuration: ${loaded.errors.join("; ")}`);
  if (!o.json && !o.quiet) for (const w of loaded.warnings) process.stderr.write(`chunkeval: warning: ${w}\n`);
  return loaded;
}

/** Runs an action with a chunkeval instance built from the flags, closing it afterwards. */
export async function withChunkeval<T>(command: Command, action: (app: Chunkeval) => Promise<T>): Promise<T> {
  // Loaded on demand so `--help` and usage errors do not pay for the whole core.
  const { createChunkeval } = await import("../../chunkeval.js");
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
    if (!Number.isInteger(n) || n < 0) throw new ValidationError(`${name} must be a whole number, got "${value}"`);
    return n;
  };
}
