import type { AggregateMetrics } from "./experiment.js";

import { METRIC_REGISTRY } from "./metric-registry/registry.js";
import type { Metric, MetricDirection, MetricScale } from "./metric-registry/metric.js";

export type { MetricDirection, MetricScale } from "./metric-registry/metric.js";
export type MetricDefinition = Metric;

/**
 * Every metric chunkeval reports, with its scale, direction and definition (ARCHITECTURE
 * convention 16): these travel into JSON exports and every scorecard header, so a reader never
 * has to guess whether 0.9 is good or what range a number lives in. Each is defined in its own
 * file under `src/domain/metric-registry/`, listed in `src/domain/metric-registry/registry.ts`.
 */
export const METRICS: readonly MetricDefinition[] = METRIC_REGISTRY;

/** The scorecard's columns (console and CI summary): metric keys from the catalogue, with the digits they are shown with. */
export function scorecardMetrics(): Array<[string, number]> {
  return METRICS.flatMap((m) => (m.scorecardDigits === undefined ? [] : [[m.key, m.scorecardDigits] as [string, number]]));
}

export function metricKeys(): string[] {
  return METRICS.map((m) => m.key);
}

/** A metric's name in prose and Markdown: its report heading without the soft hyphens that mark where an HTML heading may break, else its label. */
export function metricName(definition: MetricDefinition): string {
  return (definition.reportColumn ?? definition.label).replace(/\u00AD/g, "");
}

export function metricDefinition(key: string): MetricDefinition | undefined {
  return METRICS.find((m) => m.key === key);
}

export function metricValue(m: AggregateMetrics, key: string): number | null {
  const definition = metricDefinition(key);
  // A registered metric's field is not among AggregateMetrics' named ones: read it by name.
  const v = definition ? (m as unknown as Record<string, unknown>)[definition.field] : undefined;
  return typeof v === "number" ? v : null;
}

/** "recall (0-1, higher is better)": a header that carries the scale and direction. */
export function describeScale(definition: Pick<MetricDefinition, "scale" | "direction">): string {
  return `${definition.scale}, ${definition.direction} is better`;
}

/** Definitions keyed by metric, for JSON exports. */
export function metricDefinitionsForExport(): Record<string, { scale: MetricScale; direction: MetricDirection; definition: string }> {
  return Object.fromEntries(METRICS.map((m) => [m.key, { scale: m.scale, direction: m.direction, definition: m.definition }]));
}
