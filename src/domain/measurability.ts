import { metricName } from "./metric-catalogue.js";
import type { Metric } from "./metric-registry/metric.js";
import type { MetricRegistry } from "./metric-registry/registry.js";
import type { StrategyMeasuring } from "./metric-registry/metric.js";

/**
 * Metrics this run's configuration cannot measure, with the reason: they are reported as null
 * with that reason rather than as a number that could not have come out otherwise.
 */
export function unmeasurableMetrics(metrics: MetricRegistry, dryRun: boolean, generator: { name: string; isLlm: boolean } | null): Record<string, string> {
  const because = (needs: (m: Metric) => boolean | undefined, reason: string) => Object.fromEntries(metrics.all.filter(needs).map((m) => [m.key, reason]));
  if (dryRun) return because((m) => m.needsAnswers, "dry run: no answers were generated or judged");
  if (generator && !generator.isLlm) {
    return because(
      (m) => m.needsGeneratedAnswers,
      `answers are copied from the retrieved context (${generator.name} generator), so they cannot be unsupported by it`,
    );
  }
  return {};
}

/** What one strategy of a run cannot measure, and what that takes out of every strategy's composite. */
export interface StrategyGaps {
  /** Per strategy: the metrics it cannot measure, with the reason. */
  reasons: Record<string, Record<string, string>>;
  /** Composite weights set to 0 for every strategy: their metric can be measured for some strategies only. */
  leftOut: string[];
  /** Why, in words, for the verdict notes. */
  notes: string[];
}

/**
 * The metrics a strategy cannot measure by how it searched (a metric's `unmeasurableFor`). Strategies
 * are compared on the same terms: a composite term measured for some strategies only leaves every
 * composite (it is still reported where measured), since re-weighting the others' composites alone
 * would rank them on other metrics than the rest.
 */
export function strategyGaps(metrics: MetricRegistry, strategies: Array<StrategyMeasuring & { key: string }>): StrategyGaps {
  const gaps: StrategyGaps = { reasons: Object.fromEntries(strategies.map((s) => [s.key, {}])), leftOut: [], notes: [] };
  for (const metric of metrics.all) {
    if (!metric.unmeasurableFor) continue;
    const missed = strategies.flatMap((s) => {
      const reason = metric.unmeasurableFor!(s);
      return reason === null ? [] : [{ key: s.key, reason }];
    });
    for (const { key, reason } of missed) gaps.reasons[key]![metric.key] = reason;
    if (metric.composite && missed.length > 0 && missed.length < strategies.length) {
      const name = metricName(metric);
      gaps.leftOut.push(metric.composite.weight);
      gaps.notes.push(
        `${name[0]!.toUpperCase()}${name.slice(1)} is left out of every strategy's composite, so that all are scored on the same metrics: ` +
          `it cannot be measured for ${missed.map((m) => m.key).join(", ")} (${missed[0]!.reason}).`,
      );
    }
  }
  return gaps;
}
