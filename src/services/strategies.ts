import type { Registry } from "../registry.js";
import type { StrategyDefinition } from "../strategies/strategy.js";

/** Every strategy with its description and its parameters' defaults, for `chunkeval strategies` and GET /strategies. */
export function listStrategies(registry: Registry<StrategyDefinition>) {
  return registry.names().map((name) => {
    const s = registry.get(name);
    return { name: s.name, description: s.description, parameters: s.parameters };
  });
}
