/**
 * Strategy variants as users write them and as results are keyed: `name` or
 * `name@param=value:param=value`. A key lists only the parameters that differ from the
 * defaults, in a fixed order, so the same variant always has the same key and a variant equal
 * to the defaults is the plain strategy name. Pure string handling: which parameters exist and
 * what they may be is checked in services/corpus/variants.ts against the strategy registry.
 */

/** How a variant's chunks are searched: dense vectors, BM25 keywords, or both fused by reciprocal rank. */
export type SearchMode = "dense" | "keyword" | "hybrid";
export const SEARCH_MODES: readonly SearchMode[] = ["dense", "keyword", "hybrid"];

/** Parameters every strategy takes that act at search time, not at chunking time. */
export const SEARCH_PARAMETERS = ["retrieval", "top_k"] as const;

/**
 * The parameter every strategy takes that names the embedder its chunks are embedded (and, for the
 * semantic strategies, cut) with: part of the index key, since other vectors are another index.
 * Its value may hold the separator (`embedder=openai:text-embedding-3-small`).
 */
export const EMBEDDER_PARAMETER = "embedder";

export type ParameterValue = number | string;

export interface VariantKeyParts {
  strategy: string;
  /** Parameters as written in the key, in key order. */
  parameters: Array<[string, ParameterValue]>;
}

const VARIANT_SEPARATOR = "@";
const PARAMETER_SEPARATOR = ":";

/** `name@a=1:b=2` from its parts; `name` alone when there is no parameter. */
export function formatVariantKey(strategy: string, parameters: Array<[string, ParameterValue]>): string {
  if (parameters.length === 0) return strategy;
  return `${strategy}${VARIANT_SEPARATOR}${parameters.map(([k, v]) => `${k}=${v}`).join(PARAMETER_SEPARATOR)}`;
}

/**
 * Splits `name@a=1:b=x` into its name and raw parameters, values as written (numbers stay
 * strings here). Throws a plain Error with what is malformed; callers turn it into their error.
 */
export function splitVariantSpec(spec: string): { strategy: string; parameters: Array<[string, string]> } {
  const at = spec.indexOf(VARIANT_SEPARATOR);
  const strategy = (at < 0 ? spec : spec.slice(0, at)).trim();
  if (at < 0) return { strategy, parameters: [] };
  const body = spec.slice(at + 1);
  if (body.trim() === "") throw new Error(`nothing after "${VARIANT_SEPARATOR}"; write ${strategy}@parameter=value`);
  const parameters: Array<[string, string]> = [];
  for (const part of splitParameters(body)) {
    const eq = part.indexOf("=");
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? "" : part.slice(eq + 1).trim();
    if (!name || eq < 0 || value === "") throw new Error(`"${part}" is not parameter=value`);
    parameters.push([name, value]);
  }
  return { strategy, parameters };
}

/**
 * `a=1:embedder=openai:model:b=2` into `a=1`, `embedder=openai:model`, `b=2`: a piece without
 * `=` after an embedder's value continues that value (an embedder spec is `provider:model`).
 */
function splitParameters(body: string): string[] {
  const parts: string[] = [];
  for (const piece of body.split(PARAMETER_SEPARATOR)) {
    const previous = parts.at(-1);
    if (previous !== undefined && !piece.includes("=") && piece.trim() !== "" && previous.trim().startsWith(`${EMBEDDER_PARAMETER}=`)) {
      parts[parts.length - 1] = `${previous}${PARAMETER_SEPARATOR}${piece}`;
    } else {
      parts.push(piece);
    }
  }
  return parts;
}

/** Reads a stored key back into its parts, numbers as numbers (reports group variants with it). */
export function parseVariantKey(key: string): VariantKeyParts {
  const { strategy, parameters } = splitVariantSpec(key);
  return { strategy, parameters: parameters.map(([k, v]) => [k, Number.isFinite(Number(v)) ? Number(v) : v]) };
}

/** A sweep shorthand read, not yet expanded: its strategy and each parameter's distinct values. */
export interface SweepSpec {
  strategy: string;
  axes: Array<{ name: string; values: string[] }>;
}

/**
 * Reads the sweep shorthand `name:a=1,2:b=x,y` (or `name@a=1,2:b=x,y`) without expanding it, so
 * its size (sweepGridSize) and its parameter names can be checked before any grid is built.
 */
export function parseSweepSpec(spec: string): SweepSpec {
  const cut = spec.search(/[:@]/);
  if (cut < 0) throw new Error(`"${spec}" sweeps nothing; write name:parameter=value,value`);
  const strategy = spec.slice(0, cut).trim();
  const axes = splitParameters(spec.slice(cut + 1)).map((part) => {
    const eq = part.indexOf("=");
    const name = part.slice(0, Math.max(0, eq)).trim();
    const values = part
      .slice(eq + 1)
      .split(",")
      .map((v) => v.trim());
    if (eq < 1 || values.some((v) => v === "")) throw new Error(`"${part}" is not parameter=value,value,…`);
    return { name, values: [...new Set(values)] };
  });
  const names = axes.map((a) => a.name);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) throw new Error(`parameter "${repeated}" is swept twice`);
  return { strategy, axes };
}

/** The number of points a sweep's grid has: the product of its axes' lengths (Infinity past what a number holds). */
export function sweepGridSize(sweep: SweepSpec): number {
  return sweep.axes.reduce((size, axis) => size * axis.values.length, 1);
}

/** One variant spec per point of the sweep's grid, in row-major order (the last parameter varies fastest). */
export function expandSweep({ strategy, axes }: SweepSpec): string[] {
  let grid: string[][] = [[]];
  for (const axis of axes) grid = grid.flatMap((point) => axis.values.map((v) => [...point, `${axis.name}=${v}`]));
  return grid.map((point) => `${strategy}${VARIANT_SEPARATOR}${point.join(PARAMETER_SEPARATOR)}`);
}

/** A variant's key without one parameter: the same variant, whatever that parameter is. */
export function withoutParameter(variant: string, parameter: string): string {
  const { strategy, parameters } = parseVariantKey(variant);
  return formatVariantKey(
    strategy,
    parameters.filter(([name]) => name !== parameter),
  );
}

/** The key a variant's chunks are stored under: its key without the search-time parameters. */
export function indexKeyOf(key: string): string {
  const { strategy, parameters } = parseVariantKey(key);
  return formatVariantKey(
    strategy,
    parameters.filter(([name]) => !(SEARCH_PARAMETERS as readonly string[]).includes(name)),
  );
}

/**
 * The embedders these variant specs and sweeps name (`@embedder=`, a sweep's `embedder=a,b`), as
 * written; a spec that does not parse names none (its planning refuses it).
 */
export function embeddersNamedIn(variants: string[], sweeps: string[]): string[] {
  const named: string[] = [];
  for (const spec of variants) {
    try {
      for (const [name, value] of splitVariantSpec(spec).parameters) if (name === EMBEDDER_PARAMETER) named.push(value);
    } catch {
      // malformed: refused with its reason when the variants are planned
    }
  }
  for (const sweep of sweeps) {
    try {
      for (const axis of parseSweepSpec(sweep).axes) if (axis.name === EMBEDDER_PARAMETER) named.push(...axis.values);
    } catch {
      // as above
    }
  }
  return named;
}
