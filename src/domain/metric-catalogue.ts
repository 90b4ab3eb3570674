import type { AggregateMetrics } from "./experiment.js";

import type { MetricRegistry } from "./metric-registry/registry.js";
import type { Metric, MetricDirection, MetricScale } from "./metric-registry/metric.js";

export type { MetricDirection, MetricScale } from "./metric-registry/metric.js";
export type MetricDefinition = Metric;

/*
 * Reading a composition's metrics (its MetricRegistry): scale, direction and definition travel into
 * JSON exports and every scorecard header (ARCHITECTURE convention 16), so a reader never has to
 * guess whether 0.9 is good or what range a number lives in. Each built-in metric is defined in its
 * own file under `src/domain/metric-registry/`, listed in `src/domain/metric-registry/registry.ts`.
 */

/** The scorecard's columns (console and CI summary): metric keys, with the digits they are shown with. */
export function scorecardMetrics(metrics: MetricRegistry): Array<[string, number]> {
  return metrics.all.flatMap((m) => (m.scorecardDigits === undefined ? [] : [[m.key, m.scorecardDigits] as [string, number]]));
}

export function metricKeys(metrics: MetricRegistry): string[] {
  return metrics.all.map((m) => m.key);
}

/** A metric's name in prose and Markdown: its report heading without the soft hyphens that mark where an HTML heading may break, else its label. */
export function metricName(definition: MetricDefinition): string {
  return (definition.reportColumn ?? definition.label).replace(/\u00AD/g, "");
}

/** A strategy's value of the metric with this wire name; null when it was not measured or the registry has no such metric. */
export function metricValue(metrics: MetricRegistry, m: AggregateMetrics, key: string): number | null {
  const definition = metrics.definition(key);
  return definition ? definedMetricValue(m, definition) : null;
}

/** A strategy's value of this metric; null when it was not measured. */
export function definedMetricValue(m: AggregateMetrics, definition: Pick<MetricDefinition, "field">): number | null {
  // A plug-in metric's field is not among AggregateMetrics' named ones: read it by name.
  const v = (m as unknown as Record<string, unknown>)[definition.field];
  return typeof v === "number" ? v : null;
}

/** "recall (0-1, higher is better)": a header that carries the scale and direction. */
export function describeScale(definition: Pick<MetricDefinition, "scale" | "direction">): string {
  return `${definition.scale}, ${definition.direction} is better`;
}

/** Definitions keyed by metric, for JSON exports. */
export function metricDefinitionsForExport(metrics: MetricRegistry): Record<string, { scale: MetricScale; direction: MetricDirection; definition: string }> {
  return Object.fromEntries(metrics.all.map((m) => [m.key, { scale: m.scale, direction: m.direction, definition: m.definition }]));
}
