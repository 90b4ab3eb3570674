import { listStrategies } from "../services/corpus/strategies.js";
import { createStrategyRegistry } from "../strategies/registry.js";
import { registerStrategyModules } from "../strategies/strategy-module.js";

/**
 * The chunking strategies a configuration offers (the built-in ones and its strategy modules'),
 * with their parameters and defaults, without building the rest of the core: `chunkeval
 * strategies` answers without opening a store or loading a parser.
 */
export async function availableStrategies(strategyModules: readonly string[]): Promise<ReturnType<typeof listStrategies>> {
  const registry = createStrategyRegistry();
  await registerStrategyModules(registry, strategyModules);
  return listStrategies(registry);
}
