import { Registry } from "../../registry.js";
import { importedChunksDefinition, type ChunksImport } from "../../strategies/imported-chunks.js";
import type { StrategyDefinition } from "../../strategies/strategy.js";
import type { ServiceContext } from "../context.js";

/** What a run with imported chunks (docs/strategies.md "Your own chunks") brings besides its strategies. */
export interface ImportedChunksInput {
  /** Names and variants, or `all`; the imports join them. */
  strategies?: string | string[];
  /** Chunks a user's pipeline made, each benchmarked as a strategy named after it. */
  chunks?: ChunksImport[];
}

/**
 * The context of one run with imported chunks: the registry with every import beside the
 * built-in and module strategies (for this run only; the shared registry is not changed), and the
 * strategy list with each import not already named in it appended (`recursive` with `mine` is
 * `recursive,mine`; `mine@top_k=3` keeps `mine` from being added plain). Names are checked here:
 * a malformed name, one taken by another strategy or given twice is a ValidationError.
 */
export function withImportedChunks(ctx: ServiceContext, input: ImportedChunksInput): { ctx: ServiceContext; strategies: string | string[] | undefined } {
  const imports = input.chunks ?? [];
  if (imports.length === 0) return { ctx, strategies: input.strategies };
  const registry = new Registry<StrategyDefinition>(
    "strategy",
    ctx.strategies.names().map((n) => ctx.strategies.get(n)),
  );
  for (const imp of imports) registry.register(importedChunksDefinition(imp, registry.names()));
  const listed = input.strategies === undefined ? [] : (Array.isArray(input.strategies) ? input.strategies : input.strategies.split(",")).map((s) => s.trim());
  const mentioned = new Set(listed.map((spec) => spec.split("@")[0]!.trim()));
  const strategies = [...listed.filter(Boolean), ...imports.map((i) => i.name).filter((n) => !mentioned.has(n) && !mentioned.has("all"))];
  return { ctx: { ...ctx, strategies: registry }, strategies };
}
