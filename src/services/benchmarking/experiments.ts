import { NotFoundError } from "../../errors.js";
import { chunkHealthByStrategy } from "../../domain/chunk-health.js";
import { metricKeys, metricDefinitionsForExport, metricValue } from "../../domain/metric-catalogue.js";
import type { MetricRegistry } from "../../domain/metric-registry/registry.js";
import type { ExperimentRecord, QuestionResult } from "../../domain/experiment.js";
import type { ServiceContext } from "../context.js";

export async function getExperiment(ctx: ServiceContext, id: string): Promise<ExperimentRecord> {
  const found = await ctx.experiments.get(id);
  if (!found) throw new NotFoundError(`experiment not found: ${id}`);
  return found;
}

export async function listExperiments(ctx: ServiceContext, page: { offset: number; limit: number }) {
  return { ...(await ctx.experiments.list(page.offset, page.limit)), offset: page.offset, limit: page.limit };
}

export async function experimentResults(ctx: ServiceContext, id: string): Promise<Record<string, QuestionResult[]>> {
  await getExperiment(ctx, id);
  return ctx.experiments.results(id);
}

/**
 * The Experiment as every transport shows it (SPEC §2 fields, the verdict and comparisons, each
 * strategy's chunk health, and each metric's scale, direction and definition); run details stay
 * in reports and exports.
 */
export function experimentView(e: ExperimentRecord, metrics: MetricRegistry) {
  const { details, ...experiment } = e;
  // Chunk health per strategy (our extension): the run records it per index, in its details.
  const health = details.chunkHealth ? { chunkHealth: chunkHealthByStrategy(e.strategiesUsed, details.chunkHealth) } : {};
  // The gates the run was asked to check (bench's CI options, or a request's fail_under …), with their outcomes.
  const gates = details.gates ? { gates: details.gates } : {};
  return { ...experiment, ...health, ...gates, metrics: metricDefinitionsForExport(metrics) };
}

/**
 * Change of every metric per strategy against a baseline's metric values (strategies in both
 * only): a stored experiment's (`baselineMetrics`) or a baseline file's.
 */
export function compareWithBaseline(
  metrics: MetricRegistry,
  current: ExperimentRecord,
  baseline: Record<string, Record<string, number | null>>,
): Record<string, Record<string, number | null>> {
  const out: Record<string, Record<string, number | null>> = {};
  for (const strategy of current.strategiesUsed) {
    const before = baseline[strategy];
    if (!before) continue;
    const now = current.aggregateMetrics[strategy]!;
    out[strategy] = Object.fromEntries(
      metricKeys(metrics).map((metric) => {
        const a = metricValue(metrics, now, metric);
        const b = before[metric] ?? null;
        return [metric, a === null || b === null ? null : a - b];
      }),
    );
  }
  return out;
}

/** An experiment's metric values per strategy, keyed by metric: what compareWithBaseline compares with. */
export function baselineMetrics(metrics: MetricRegistry, e: ExperimentRecord): Record<string, Record<string, number | null>> {
  return Object.fromEntries(
    Object.entries(e.aggregateMetrics).map(([s, m]) => [s, Object.fromEntries(metricKeys(metrics).map((k) => [k, metricValue(metrics, m, k)]))]),
  );
}
