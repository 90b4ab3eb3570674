import { ValidationError } from "../errors.js";
import { Registry } from "../registry.js";
import type { StrategyName } from "../domain/types.js";
import type { StrategyDefinition } from "./strategy.js";
import { recursiveStrategy } from "./recursive.js";
import { fixedSizeStrategy } from "./fixed-size.js";
import { semanticStrategy } from "./semantic.js";
import { contextualRetrievalStrategy } from "./contextual-retrieval.js";
import { semanticParentChildStrategy } from "./semantic-parent-child.js";

export const STRATEGY_NAMES: StrategyName[] = [
  "recursive",
  "fixed_size",
  "semantic",
  "contextual_retrieval",
  "semantic_parent_child",
];

export function createStrategyRegistry(): Registry<StrategyDefinition> {
  return new Registry("strategy", [
    recursiveStrategy,
    fixedSizeStrategy,
    semanticStrategy,
    contextualRetrievalStrategy,
    semanticParentChildStrategy,
  ]);
}

/**
 * Parses a strategy list as users write it: names separated by commas, or `all`.
 * Unknown names are an error listing the valid ones; duplicates are dropped.
 */
export function parseStrategyList(
  registry: Registry<StrategyDefinition>,
  value: string | string[],
  ErrorClass: new (message: string) => Error = ValidationError,
): string[] {
  const raw = (Array.isArray(value) ? value : value.split(",")).map((s) => s.trim()).filter(Boolean);
  if (raw.length === 0) throw new ErrorClass(`no strategy given (valid: ${registry.names().join(", ")}, or all)`);
  if (raw.length === 1 && raw[0] === "all") return registry.names();
  const unknown = raw.filter((n) => !registry.names().includes(n));
  if (unknown.length > 0) {
    throw new ErrorClass(`unknown strategy ${unknown.map((u) => `"${u}"`).join(", ")} (valid: ${registry.names().join(", ")}, or all)`);
  }
  return [...new Set(raw)];
}
