import { ValidationError } from "../errors.js";
import type { StrategyParameter } from "./strategy.js";

/**
 * Merges user options over parameter defaults, rejecting unknown keys and non-numbers.
 * Range rules specific to a strategy are checked by its own `create`.
 */
export function resolveOptions(strategy: string, parameters: StrategyParameter[], given: Record<string, unknown> = {}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of parameters) out[p.name] = p.default;
  for (const [key, value] of Object.entries(given)) {
    if (!(key in out)) {
      throw new ValidationError(`${strategy}: unknown option "${key}" (valid: ${parameters.map((p) => p.name).join(", ")})`);
    }
    const n = typeof value === "string" ? Number(value) : value;
    if (typeof n !== "number" || !Number.isFinite(n)) {
      throw new ValidationError(`${strategy}: option "${key}" must be a number, got ${JSON.stringify(value)}`);
    }
    out[key] = n;
  }
  return out;
}

/** Checks chunk size > 0 and 0 <= overlap < size (ARCHITECTURE convention 2). */
export function checkSizeAndOverlap(strategy: string, size: number, overlap: number, names = ["chunk_size", "chunk_overlap"]): void {
  if (!Number.isInteger(size) || size <= 0) throw new ValidationError(`${strategy}: ${names[0]} must be a whole number > 0`);
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new ValidationError(`${strategy}: ${names[1]} must be a whole number with 0 <= ${names[1]} < ${names[0]}`);
  }
}
