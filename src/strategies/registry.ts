import { Registry } from "../registry.js";
import type { StrategyName } from "../domain/types.js";
import type { StrategyDefinition } from "./strategy.js";
import { recursiveStrategy } from "./recursive.js";
import { fixedSizeStrategy } from "./fixed-size.js";
import { semanticStrategy } from "./semantic.js";
import { contextualRetrievalStrategy } from "./contextual-retrieval.js";
import { semanticParentChildStrategy } from "./semantic-parent-child.js";

export const STRATEGY_NAMES: StrategyName[] = ["recursive", "fixed_size", "semantic", "contextual_retrieval", "semantic_parent_child"];

export function createStrategyRegistry(): Registry<StrategyDefinition> {
  return new Registry("strategy", [recursiveStrategy, fixedSizeStrategy, semanticStrategy, contextualRetrievalStrategy, semanticParentChildStrategy]);
}
