import type { ExperimentRecord } from "../domain/experiment.js";
import type { MetricRegistry } from "../domain/metric-registry/registry.js";

/**
 * Which metrics each composite holds, with their share of it: a metric that could not be measured
 * (no judge for it, answers not generated) drops out and the others' weights are renormalised, so
 * two composites are comparable only when they hold the same metrics. "Composite of: recall 45 %,
 * IoU 18 %, …" when every strategy's holds the same; otherwise one clause per strategy. Null when
 * no composite was scored (or the experiment predates the contributions).
 */
export function compositeBasis(e: ExperimentRecord, metrics: MetricRegistry): string | null {
  const weightOf = new Map(metrics.composite.map((m) => [m.key, e.details.weights?.[m.composite.weight] ?? 0]));
  const held = (strategy: string) => Object.keys(e.aggregateMetrics[strategy]?.compositeContributions ?? {});
  const describe = (keys: string[]) => {
    const total = keys.reduce((n, k) => n + (weightOf.get(k) ?? 0), 0);
    return keys.map((k) => `${metrics.definition(k)?.label ?? k} ${Math.round((100 * (weightOf.get(k) ?? 0)) / total)} %`).join(", ");
  };
  const scored = e.strategiesUsed.filter((s) => held(s).length > 0);
  if (scored.length === 0) return null;
  const bases = new Map<string, string[]>();
  for (const s of scored) bases.set(held(s).join(","), [...(bases.get(held(s).join(",")) ?? []), s]);
  if (bases.size === 1) return `Composite of: ${describe(held(scored[0]!))}`;
  const clauses = [...bases.values()].map((strategies) => `${strategies.join(", ")} of ${describe(held(strategies[0]!))}`);
  return `Composites hold different metrics: ${clauses.join("; ")}`;
}
