import type { ExperimentRecord } from "../domain/experiment.js";
import { RANK_CUTS } from "../domain/rank-metrics.js";
import type { MetricRegistry } from "../domain/metric-registry/registry.js";
import { describeScale } from "../domain/metric-catalogue.js";

/** One cut of a strategy's `rankMetrics`, each at-k metric's mean and interval under its field. */
type CutByName = Record<string, unknown> & { confidenceIntervals: Record<string, [number, number] | null | undefined> };

/**
 * The ranking table of the technical and Markdown reports: per strategy, a row for each at-k metric
 * of the registry (Recall@k, MRR@k, nDCG@k) at every cut with its 95 % interval, and the tokens
 * retrieved per question; with each metric's scale and definition for the text above it. Empty
 * when no strategy was ranked (no references, or an experiment from before the cuts were recorded).
 */
export function rankTable(e: ExperimentRecord, registry: MetricRegistry) {
  const strategies = e.strategiesUsed.filter((s) => (e.aggregateMetrics[s]?.rankMetrics?.length ?? 0) > 0);
  const metrics = registry.atK;
  return {
    cuts: [...RANK_CUTS],
    metrics: metrics.map((m) => ({ label: m.label, scale: describeScale(m), definition: m.definition })),
    rows: strategies.map((strategy) => {
      const m = e.aggregateMetrics[strategy]!;
      // Read by name: a metric registered beside the built-in ones is not among RankMetricsAtK's named fields.
      const byK = new Map(m.rankMetrics!.map((r) => [r.k, r as unknown as CutByName] as const));
      return {
        strategy,
        tokens: m.avgRetrievedTokens ?? null,
        tokensInterval: m.retrievedTokensInterval ?? null,
        measures: metrics.map(({ label, field }) => ({
          label,
          cells: RANK_CUTS.map((k) => ({ value: byK.get(k)?.[field] ?? null, interval: byK.get(k)?.confidenceIntervals[field] ?? null })),
        })),
      };
    }),
  };
}
