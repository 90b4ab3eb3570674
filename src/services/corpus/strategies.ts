import type { ChunkevalConfig } from "../../config/schema.js";
import { ValidationError } from "../../errors.js";
import type { Registry } from "../../registry.js";
import type { StrategyDefinition } from "../../strategies/strategy.js";

/** Every strategy with its description and its parameters' defaults, for `chunkeval strategies` and GET /strategies. */
export function listStrategies(registry: Registry<StrategyDefinition>) {
  return registry.names().map((name) => {
    const s = registry.get(name);
    return { name: s.name, description: s.description, parameters: s.parameters };
  });
}

/**
 * Checks the configured strategy options and the /v1 ingestion strategy when chunkeval starts,
 * so a misconfiguration stops `serve` (and every command) with a usage error instead of
 * reaching clients as a 422 on their requests.
 */
export async function checkStrategySettings(
  registry: Registry<StrategyDefinition>,
  config: Pick<ChunkevalConfig, "strategyOptions" | "ingestion">,
): Promise<void> {
  const problems: string[] = [];
  const attempt = async (what: string, check: () => Promise<unknown>) => {
    try {
      await check();
    } catch (error) {
      problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  for (const [name, options] of Object.entries(config.strategyOptions)) {
    await attempt(`strategies.${name}`, () => registry.get(name).create(options));
  }
  await attempt("ingestion_strategy", async () => registry.get(config.ingestion.strategy));
  if (problems.length > 0) throw new ValidationError(`invalid configuration: ${problems.join("; ")}`);
}
