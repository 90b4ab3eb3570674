import type { ExperimentRecord } from "../domain/experiment.js";
import { METRICS, metricDefinition, metricValue, type MetricDefinition } from "../domain/metric-catalogue.js";
import { ValidationError } from "../errors.js";

/** `--fail-under` gates higher-is-better metrics, `--fail-over` lower-is-better ones. */
export type GateKind = "fail-under" | "fail-over";

export interface Gate {
  kind: GateKind;
  metric: MetricDefinition;
  value: number;
}

const gateFor = (direction: MetricDefinition["direction"]): GateKind => (direction === "higher" ? "fail-under" : "fail-over");

/**
 * Parses `METRIC=VALUE` for a gate. A metric gated the wrong way (a floor on a lower-is-better
 * metric, which a perfect score would fail) is a usage error naming the right option.
 */
export function parseGate(kind: GateKind, raw: string): Gate {
  const [name, value, ...rest] = raw.split("=");
  const metric = name ? metricDefinition(name) : undefined;
  const n = Number(value);
  const valid = METRICS.filter((m) => gateFor(m.direction) === kind).map((m) => m.key);
  if (!metric || value === undefined || value.trim() === "" || rest.length > 0 || !Number.isFinite(n)) {
    throw new ValidationError(`--${kind} expects METRIC=VALUE with METRIC one of ${valid.join(", ")}; got "${raw}"`);
  }
  const right = gateFor(metric.direction);
  if (right !== kind) {
    throw new ValidationError(`${metric.key}: ${metric.direction} is better, so gate it with --${right} ${metric.key}=${value}, not --${kind}`);
  }
  return { kind, metric, value: n };
}

/** The gates the best strategy misses; a metric that could not be measured misses every gate. */
export function missedGates(experiment: ExperimentRecord, gates: Gate[]): Array<Gate & { actual: number | null }> {
  const best = experiment.aggregateMetrics[experiment.bestStrategy]!;
  return gates
    .map((gate) => ({ ...gate, actual: metricValue(best, gate.metric.key) }))
    .filter((g) => g.actual === null || (g.kind === "fail-under" ? g.actual < g.value : g.actual > g.value));
}
