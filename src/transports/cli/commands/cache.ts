import type { Command } from "commander";
import { ValidationError } from "../../../errors.js";
import { loadCliConfig, type GlobalOptions } from "../context.js";
import { printJson, printLine, printTable } from "../output.js";

const DURATION_UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `30d`, `12h`, `90m`, `2w` in milliseconds; anything else is bad usage. */
export function parseAge(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([mhdw])$/i.exec(value.trim());
  if (!m) throw new ValidationError(`--older-than takes an age like 30d, 12h, 90m or 2w, got "${value}"`);
  return Number(m[1]) * DURATION_UNITS_MS[m[2]!.toLowerCase()]!;
}

/** `200MB`, `1.5GB`, `500KB`, `1024` (bytes) in bytes, 1024-based like max_upload_mb; anything else is bad usage. */
export function parseSize(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value.trim());
  if (!m) throw new ValidationError(`--max-size takes a size like 200MB, 1.5GB, 500KB or a number of bytes, got "${value}"`);
  return Math.floor(Number(m[1]) * SIZE_UNITS[(m[2] ?? "b").toLowerCase()]!);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [unit, size] = bytes < 1024 ** 2 ? ["KB", 1024] : bytes < 1024 ** 3 ? ["MB", 1024 ** 2] : ["GB", 1024 ** 3];
  return `${(bytes / size).toFixed(1)} ${unit}`;
}

export function registerCacheCommand(program: Command): void {
  const cache = program
    .command("cache")
    .description("show the embedding and completion cache (cache_dir): its file, size on disk and entries per embedder or model")
    .option("--json", "print only JSON on stdout")
    .action(async (_options, command: Command) => {
      const [{ describeCache }, { openCacheMaintenance }] = await Promise.all([import("../../../api/operations.js"), import("../../../api/create.js")]);
      const report = await describeCache(await openCacheMaintenance(loadCliConfig(command).config));
      if (command.optsWithGlobals<GlobalOptions>().json) return printJson(report);
      printLine(`cache: ${report.path} (${formatBytes(report.fileBytes)} on disk)`);
      if (report.groups.length === 0) printLine("no entries");
      else
        printTable(
          ["kind", "embedder or model", "entries", "size", "last used", "cache key"],
          report.groups.map((g) => [g.kind, g.name, g.entries, formatBytes(g.bytes), g.lastUsedAt, g.cacheKey]),
        );
      if (report.legacyEntries > 0)
        printLine(
          `${report.legacyEntries} entries from before cache_dir are still in the data directory's database: ` +
            "moved here when their embedder or model is next used",
        );
    });

  cache
    .command("clear")
    .description("remove every cached embedding and completion, or those of one embedder or model")
    .option("--embedder <spec>", "only this embedder's embeddings (e.g. use, hash, openai:text-embedding-3-small)")
    .option("--model <spec>", "only this model's completions (e.g. openai:gpt-4o-mini)")
    .option("--json", "print only JSON on stdout")
    .action(async (options: { embedder?: string; model?: string }, command: Command) => {
      // `--embedder` is also the program's option, and commander gives it to the program wherever it
      // stands: read from there, the filter is never lost (a lost one cleared the whole cache).
      const embedder = options.embedder ?? command.optsWithGlobals<GlobalOptions>().embedder;
      const [{ clearCache }, { openCacheMaintenance }] = await Promise.all([import("../../../api/operations.js"), import("../../../api/create.js")]);
      const result = await clearCache(await openCacheMaintenance(loadCliConfig(command).config), { embedder, model: options.model });
      if (command.optsWithGlobals<GlobalOptions>().json) return printJson(result);
      printLine(`removed ${result.removed} entries; the cache is now ${formatBytes(result.fileBytes)} on disk`);
    });

  cache
    .command("prune")
    .description("remove entries not used for a while, then the least recently used ones down to a size")
    .option("--older-than <age>", "remove entries last used longer ago than this: 30d, 12h, 90m, 2w", parseAge)
    .option("--max-size <size>", "then remove the least recently used until the entries take at most this: 200MB, 1.5GB, 500KB (1024-based)", parseSize)
    .option("--json", "print only JSON on stdout")
    .action(async (options: { olderThan?: number; maxSize?: number }, command: Command) => {
      if (options.olderThan === undefined && options.maxSize === undefined)
        throw new ValidationError("cache prune needs --older-than AGE, --max-size SIZE or both");
      const [{ pruneCache }, { openCacheMaintenance }] = await Promise.all([import("../../../api/operations.js"), import("../../../api/create.js")]);
      const result = await pruneCache(await openCacheMaintenance(loadCliConfig(command).config), { olderThanMs: options.olderThan, maxBytes: options.maxSize });
      if (command.optsWithGlobals<GlobalOptions>().json) return printJson(result);
      printLine(`removed ${result.removed} entries; the cache is now ${formatBytes(result.fileBytes)} on disk`);
    });
}
