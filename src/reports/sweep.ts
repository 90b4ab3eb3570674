import type { ExperimentRecord } from "../domain/experiment.js";
import { listWords } from "../domain/list-words.js";
import { metricValue, type MetricDefinition } from "../domain/metric-catalogue.js";
import type { MetricRegistry } from "../domain/metric-registry/registry.js";
import { parseVariantKey, type ParameterValue } from "../domain/variant-key.js";
import { smallMultiples, type Panel } from "./charts.js";

/** The metrics a sweep is read by (their `sweepColumn` in the metric registry), in column order. */
function sweepMetrics(metrics: MetricRegistry): MetricDefinition[] {
  return metrics.all.filter((m) => m.sweepColumn !== undefined).sort((a, b) => a.sweepColumn! - b.sweepColumn!);
}

export interface SweepCell {
  value: number | null;
  interval: [number, number] | null;
}

export interface SweepRow {
  key: string;
  best: boolean;
  /** The swept parameters' values for this variant, defaults filled in. */
  values: ParameterValue[];
  metrics: SweepCell[];
}

/** One strategy family of a sweep: its variants, the parameters that vary among them, a table and a chart. */
export interface SweepFamily {
  strategy: string;
  parameters: string[];
  metrics: Array<{ key: string; label: string; scale: string }>;
  rows: SweepRow[];
  chart: string;
}

/** Every parameter of a variant with its value in effect: chunking options, then retrieval and top_k. */
function settingsOf(e: ExperimentRecord, key: string): Map<string, ParameterValue> {
  const settings = new Map<string, ParameterValue>(Object.entries(e.details.strategyOptions[key] ?? {}));
  const parsed = parseVariantKey(key);
  for (const [name, value] of parsed.parameters) settings.set(name, value);
  const search = e.details.search?.[key];
  settings.set("retrieval", search?.retrieval ?? settings.get("retrieval") ?? "default");
  settings.set("top_k", search?.topK ?? settings.get("top_k") ?? e.details.topK);
  return settings;
}

/** The smallest of 1, 2 or 5 times a power of ten that is at least `v` (an axis end). */
function niceCeiling(v: number): number {
  if (v <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * power).find((c) => c >= v - 1e-12)!;
}

const order = (a: ParameterValue, b: ParameterValue) => (typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b)));

/**
 * The sweep section's content: per strategy with two or more variants in the experiment, the
 * parameters that vary among them, one row per variant (sorted by those parameters) with
 * recall, precision, IoU and composite and their confidence intervals, and a small-multiples
 * chart of each metric against the first swept parameter, one line per setting of the others.
 */
export function sweepFamilies(e: ExperimentRecord, metrics: MetricRegistry): SweepFamily[] {
  const byStrategy = new Map<string, string[]>();
  for (const key of e.strategiesUsed) {
    const strategy = parseVariantKey(key).strategy;
    byStrategy.set(strategy, [...(byStrategy.get(strategy) ?? []), key]);
  }
  const families: SweepFamily[] = [];
  for (const [strategy, keys] of byStrategy) {
    if (keys.length < 2) continue;
    const settings = new Map(keys.map((k) => [k, settingsOf(e, k)]));
    const names = [...new Set(keys.flatMap((k) => [...settings.get(k)!.keys()]))];
    const parameters = names.filter((n) => new Set(keys.map((k) => String(settings.get(k)!.get(n)))).size > 1);
    if (parameters.length === 0) continue;
    const valuesOf = (k: string) => parameters.map((p) => settings.get(k)!.get(p) ?? "");
    const sorted = [...keys].sort((a, b) => {
      const [va, vb] = [valuesOf(a), valuesOf(b)];
      for (let i = 0; i < va.length; i++) {
        const c = order(va[i]!, vb[i]!);
        if (c !== 0) return c;
      }
      return 0;
    });
    const cell = (k: string, metric: string): SweepCell => {
      const m = e.aggregateMetrics[k]!;
      return { value: metricValue(metrics, m, metric), interval: m.confidenceIntervals?.[metric] ?? null };
    };
    const columns = sweepMetrics(metrics);
    const rows = sorted.map((k) => ({ key: k, best: k === e.bestStrategy, values: valuesOf(k), metrics: columns.map((d) => cell(k, d.key)) }));
    const [x, ...others] = parameters;
    const xValues = [...new Set(rows.map((r) => r.values[0]!))].sort(order);
    const seriesOf = (r: SweepRow) => (others.length === 0 ? strategy : others.map((p, i) => `${p}=${r.values[i + 1]}`).join(", "));
    const seriesNames = [...new Set(rows.map(seriesOf))];
    const panels: Panel[] = columns.map((d, m) => {
      const top = Math.max(0, ...rows.flatMap((r) => [r.metrics[m]!.value ?? 0, r.metrics[m]!.interval?.[1] ?? 0]));
      return {
        title: `${d.label} (${d.scale})`,
        // Fitted to the values: precision and IoU of small spans would lie flat on a full 0-1 axis.
        yMax: Math.min(d.scale === "0-10" ? 10 : 1, niceCeiling(top)),
        series: seriesNames.map((name) => ({
          label: name,
          points: xValues.map((xv) => {
            const row = rows.find((r) => seriesOf(r) === name && String(r.values[0]) === String(xv));
            return { y: row?.metrics[m]!.value ?? null, interval: row?.metrics[m]!.interval ?? null };
          }),
        })),
      };
    });
    families.push({
      strategy,
      parameters,
      metrics: columns.map((d) => ({ key: d.key, label: d.label, scale: d.scale })),
      rows,
      chart: smallMultiples(`${strategy}: ${listWords(columns.map((d) => d.label))} against ${x} (whiskers: 95 % CI)`, panels, {
        x: x!,
        values: xValues.map(String),
      }),
    });
  }
  return families;
}
