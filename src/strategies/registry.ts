import { Registry } from "../registry.js";
import type { StrategyDefinition } from "./strategy.js";
import { recursiveStrategy } from "./recursive.js";
import { fixedSizeStrategy } from "./fixed-size.js";
import { semanticStrategy } from "./semantic.js";
import { contextualRetrievalStrategy } from "./contextual-retrieval.js";
import { semanticParentChildStrategy } from "./semantic-parent-child.js";
import { structureStrategy } from "./structure.js";

/** The built-in strategies, in the order `all` runs them; strategy modules may not reuse these names. */
export const STRATEGY_NAMES = ["recursive", "fixed_size", "semantic", "contextual_retrieval", "semantic_parent_child", "structure"] as const;
export type BuiltInStrategyName = (typeof STRATEGY_NAMES)[number];

export function createStrategyRegistry(): Registry<StrategyDefinition> {
  return new Registry("strategy", [
    recursiveStrategy,
    fixedSizeStrategy,
    semanticStrategy,
    contextualRetrievalStrategy,
    semanticParentChildStrategy,
    structureStrategy,
  ]);
}
