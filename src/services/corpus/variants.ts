import { DEFAULTS } from "../../config/defaults.js";
import { ValidationError } from "../../errors.js";
import { defaultSearchMode, hybridDenseWeight, type SearchPlan } from "../../domain/default-search-mode.js";
import {
  expandSweep,
  formatVariantKey,
  parseSweepSpec,
  SEARCH_MODES,
  SEARCH_PARAMETERS,
  EMBEDDER_PARAMETER,
  splitVariantSpec,
  sweepGridSize,
  type ParameterValue,
  type SearchMode,
  type SweepSpec,
} from "../../domain/variant-key.js";
import { checkTopK } from "./top-k.js";
import type { ServiceContext } from "../context.js";

/**
 * A strategy at given parameters (docs/benchmarks.md "Variants and sweeps"). Chunking parameters decide
 * which chunks exist, so they are part of `indexKey`, the name the chunks are stored under;
 * `retrieval` and `top_k` act at search time, so variants differing only in them share chunks.
 */
export interface StrategyVariant {
  /** The stable key results are reported under, e.g. `recursive@chunk_size=128:retrieval=hybrid`. */
  key: string;
  /** The registry name, e.g. `recursive`. */
  strategy: string;
  /** The key of the chunks: the strategy with its non-default chunking parameters (and embedder) only. */
  indexKey: string;
  /** Chunking options in effect (configuration and defaults included), as the strategy records them. */
  options: Record<string, number>;
  /** The search mode; null is the run's default (the retrieval setting: domain/default-search-mode.ts). */
  retrieval: SearchMode | null;
  /** Chunks retrieved per question; null keeps the run's. */
  topK: number | null;
  /** The embedder it names (`@embedder=`): its chunks are embedded (and semantic strategies cut) with it; null is the configured one. */
  embedder: string | null;
}

/** The embedder a variant's chunks are embedded with: its own, else the configured one. */
export function embedderOf(ctx: Pick<ServiceContext, "config">, variant: Pick<StrategyVariant, "embedder">): string {
  return variant.embedder ?? ctx.config.embedder;
}

/**
 * How a variant is searched: its own mode, else the run's one way (the `retrieval` setting, by the
 * configured embedder), the same for every variant whatever its embedder, so that a comparison of
 * embedders is not one of search modes too; a hybrid search's dense share is its embedder's own.
 */
export function variantSearchPlan(ctx: Pick<ServiceContext, "config">, variant: Pick<StrategyVariant, "embedder" | "retrieval">): SearchPlan {
  return { mode: variant.retrieval ?? defaultSearchMode(ctx.config), denseWeight: hybridDenseWeight({ ...ctx.config, embedder: embedderOf(ctx, variant) }) };
}

/** What a variant's parameters are compared with: a parameter equal to its default is left out of the key. */
export interface VariantDefaults {
  topK: number;
}

const usage = (spec: string, message: string) => new ValidationError(`strategy variant "${spec}": ${message}`);

/**
 * Resolves one variant spec (`name` or `name@param=value:…`) against the registry and the
 * configuration. Unknown names are `UnknownName` errors (as plain lists always were); a bad
 * parameter is a usage error naming the variant and the parameter.
 */
export async function resolveVariant(
  ctx: ServiceContext,
  spec: string,
  defaults: VariantDefaults,
  UnknownName: new (message: string) => Error = ValidationError,
): Promise<StrategyVariant> {
  let parts: ReturnType<typeof splitVariantSpec>;
  try {
    parts = splitVariantSpec(spec.trim());
  } catch (error) {
    throw usage(spec, (error as Error).message);
  }
  const names = ctx.strategies.names();
  if (!names.includes(parts.strategy)) throw new UnknownName(`unknown strategy "${parts.strategy}" (valid: ${names.join(", ")}, or all)`);
  const definition = ctx.strategies.get(parts.strategy);
  const chunkingNames = definition.parameters.map((p) => p.name);
  const chunking: Record<string, number> = {};
  let retrieval: SearchMode | null = null;
  let topK: number | null = null;
  let embedder: string | null = null;
  const seen = new Set<string>();
  for (const [name, raw] of parts.parameters) {
    if (seen.has(name)) throw usage(spec, `parameter "${name}" is given twice`);
    seen.add(name);
    if (name === "retrieval") {
      if (!SEARCH_MODES.includes(raw as SearchMode)) throw usage(spec, `retrieval must be one of ${SEARCH_MODES.join(", ")}, got "${raw}"`);
      retrieval = raw as SearchMode;
    } else if (name === "top_k") {
      try {
        topK = checkTopK(Number(raw));
      } catch (error) {
        throw usage(spec, (error as Error).message);
      }
    } else if (name === EMBEDDER_PARAMETER) {
      try {
        // Made now (opened lazily): an unknown embedder or a model that cannot load is refused before any work.
        await ctx.embedder(raw);
      } catch (error) {
        throw usage(spec, `embedder "${raw}": ${(error as Error).message}`);
      }
      embedder = raw;
    } else if (chunkingNames.includes(name)) {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw usage(spec, `parameter "${name}" must be a number, got "${raw}"`);
      chunking[name] = n;
    } else {
      throw usage(
        spec,
        `unknown parameter "${name}" (valid for ${parts.strategy}: ${[...chunkingNames, EMBEDDER_PARAMETER, "retrieval", "top_k"].join(", ")})`,
      );
    }
  }
  const configured = ctx.config.strategyOptions[parts.strategy] ?? {};
  const plain = await definition.create(configured);
  let strategy;
  try {
    strategy = await definition.create({ ...configured, ...chunking });
  } catch (error) {
    throw usage(spec, (error as Error).message);
  }
  // Only what differs from the defaults names the variant: equal to them, it is the plain strategy.
  const changed: Array<[string, ParameterValue]> = chunkingNames.filter((n) => strategy.options[n] !== plain.options[n]).map((n) => [n, strategy.options[n]!]);
  // A named embedder stays in the key even when it is the configured one: its index is then the
  // same whatever embedder is configured later (the plain name's follows the configuration).
  if (embedder !== null) changed.push([EMBEDDER_PARAMETER, embedder]);
  const indexKey = formatVariantKey(parts.strategy, changed);
  if (retrieval === defaultSearchMode(ctx.config)) retrieval = null;
  if (topK === defaults.topK) topK = null;
  const searchParts: Array<[string, ParameterValue]> = [
    ...(retrieval ? [["retrieval", retrieval] as [string, ParameterValue]] : []),
    ...(topK ? [["top_k", topK] as [string, ParameterValue]] : []),
  ];
  return {
    key: formatVariantKey(parts.strategy, [...changed, ...searchParts]),
    strategy: parts.strategy,
    indexKey,
    options: { ...strategy.options },
    retrieval,
    topK,
    embedder,
  };
}

export interface VariantPlanInput {
  /** Names and variants, comma-separated or as a list; `all` is every strategy. Empty with a sweep. */
  strategies?: string | string[];
  /** Sweep shorthands, each expanding to a grid: `recursive:chunk_size=128,256:chunk_overlap=0,32`. */
  sweep?: string[];
  /** One top-k for the run, or several to sweep (each variant at each value). */
  topK?: number | number[];
  /** The hard limit on variants (default DEFAULTS.maxSweepVariants), checked before any sweep is expanded. */
  maxVariants?: number;
  /** Search modes to run every variant under (one that names its own `retrieval` keeps it): the verdict then says whether it holds under each. */
  retrievers?: SearchMode[];
  /** Embedders to run every variant with (one that names its own `embedder` keeps it): the verdict then says whether it holds with each. */
  embedders?: string[];
}

export interface VariantPlan {
  variants: StrategyVariant[];
  /** The run's top-k: the one given, or the configured one when several are swept. */
  topK: number;
}

/** Splits a comma-separated list of variants; a sweep's commas belong to values, so sweeps come separately. */
function splitList(value: string | string[]): string[] {
  return (Array.isArray(value) ? value : value.split(",")).map((s) => s.trim()).filter(Boolean);
}

/** Refuses a grid larger than the hard limit, naming the option that raises it. */
export function checkGridSize(variants: number, limit: number = DEFAULTS.maxSweepVariants): void {
  if (!Number.isInteger(limit) || limit < 1) throw new ValidationError(`max_variants must be a whole number >= 1, got ${limit}`);
  if (variants > limit) {
    const size = Number.isFinite(variants) && variants < 1e15 ? String(variants) : "too many";
    throw new ValidationError(
      `the benchmark has ${size} variants, more than the limit of ${limit}; ` +
        `narrow the sweep or raise the limit with --max-variants ${Number.isFinite(variants) && variants < 1e15 ? variants : "N"} (max_variants over HTTP)`,
    );
  }
}

/**
 * Reads a sweep and checks its strategy and parameter names against the registry, without
 * expanding it: a sweep's grid can be millions of points in a few hundred bytes.
 */
function readSweep(ctx: ServiceContext, sweep: string, UnknownName: new (message: string) => Error): SweepSpec {
  let spec: SweepSpec;
  try {
    spec = parseSweepSpec(sweep.trim());
  } catch (error) {
    throw new ValidationError(`sweep "${sweep}": ${(error as Error).message}`);
  }
  const names = ctx.strategies.names();
  if (!names.includes(spec.strategy)) throw new UnknownName(`unknown strategy "${spec.strategy}" (valid: ${names.join(", ")}, or all)`);
  const valid = [...ctx.strategies.get(spec.strategy).parameters.map((p) => p.name), EMBEDDER_PARAMETER, ...SEARCH_PARAMETERS];
  const unknown = spec.axes.find((axis) => !valid.includes(axis.name));
  if (unknown) throw new ValidationError(`sweep "${sweep}": unknown parameter "${unknown.name}" (valid for ${spec.strategy}: ${valid.join(", ")})`);
  return spec;
}

/**
 * Everything a run compares: the listed variants, the sweeps' grids, each at every top-k given.
 * Duplicates (the same key however written) are kept once, in first-seen order. The number of
 * variants (counted before duplicates go, from the sweeps' axis lengths) is checked against the
 * limit before any sweep is expanded or any variant resolved.
 */
export async function planVariants(
  ctx: ServiceContext,
  input: VariantPlanInput,
  UnknownName: new (message: string) => Error = ValidationError,
): Promise<VariantPlan> {
  const topKs = input.topK === undefined ? [] : Array.isArray(input.topK) ? input.topK : [input.topK];
  topKs.forEach(checkTopK);
  const runTopK = topKs.length === 1 ? topKs[0]! : ctx.config.topK;
  const listed = input.strategies === undefined ? [] : splitList(input.strategies);
  const sweeps = (input.sweep ?? []).map((sweep) => readSweep(ctx, sweep, UnknownName));
  if (listed.length === 0 && sweeps.length === 0) throw new UnknownName(`no strategy given (valid: ${ctx.strategies.names().join(", ")}, or all)`);
  const specs = listed.flatMap((spec) => (spec === "all" ? ctx.strategies.names() : [spec]));
  const retrievers = [...new Set(input.retrievers ?? [])];
  const unknownMode = retrievers.find((m) => !SEARCH_MODES.includes(m));
  if (unknownMode) throw new ValidationError(`unknown retriever "${unknownMode}" (valid: ${SEARCH_MODES.join(", ")})`);
  const embedders = [...new Set((input.embedders ?? []).map((e) => e.trim()).filter(Boolean))];
  const modelless = embedders.find((e) => e.endsWith(":"));
  if (modelless) throw new ValidationError(`embedder "${modelless}" names no model: write ${modelless}MODEL`);
  const gridSize =
    sweeps.reduce((n, sweep) => n + sweepGridSize(sweep), specs.length) *
    Math.max(1, topKs.length) *
    Math.max(1, retrievers.length) *
    Math.max(1, embedders.length);
  checkGridSize(gridSize, input.maxVariants);
  for (const sweep of sweeps) specs.push(...expandSweep(sweep));
  const defaults = { topK: runTopK };
  const resolved = await Promise.all(specs.map((spec) => resolveVariant(ctx, spec, defaults, UnknownName)));
  const variants: StrategyVariant[] = [];
  const keys = new Set<string>();
  const withParameter = (key: string, parameter: string) => `${key}${key.includes("@") ? ":" : "@"}${parameter}`;
  for (const v of resolved) {
    const embedded = embedders.length > 0 && v.embedder === null ? embedders.map((e) => withParameter(v.key, `${EMBEDDER_PARAMETER}=${e}`)) : [v.key];
    const searched = embedded.flatMap((key) =>
      retrievers.length > 0 && v.retrieval === null ? retrievers.map((m) => withParameter(key, `retrieval=${m}`)) : [key],
    );
    const copies = await Promise.all(
      searched
        .flatMap((key) => (topKs.length > 1 && v.topK === null ? topKs.map((k) => withParameter(key, `top_k=${k}`)) : [key]))
        .map((spec) => (spec === v.key ? v : resolveVariant(ctx, spec, defaults, UnknownName))),
    );
    for (const c of copies) {
      if (keys.has(c.key)) continue;
      keys.add(c.key);
      variants.push(c);
    }
  }
  return { variants, topK: runTopK };
}
