import type { ExperimentRecord } from "../domain/experiment.js";
import { RANK_CUTS, type RankMetricsAtK } from "../domain/rank-metrics.js";

const MEASURES = [
  { label: "Recall@k", field: "recall" },
  { label: "MRR@k", field: "mrr" },
  { label: "nDCG@k", field: "ndcg" },
] as const;

/**
 * The ranking table of the technical and Markdown reports: per strategy, Recall@k, MRR@k and
 * nDCG@k at every cut with their 95 % intervals, and the tokens retrieved per question. Empty
 * when no strategy was ranked (no references, or an experiment from before the cuts were recorded).
 */
export function rankTable(e: ExperimentRecord) {
  const strategies = e.strategiesUsed.filter((s) => (e.aggregateMetrics[s]?.rankMetrics?.length ?? 0) > 0);
  return {
    cuts: [...RANK_CUTS],
    rows: strategies.map((strategy) => {
      const m = e.aggregateMetrics[strategy]!;
      const byK = new Map(m.rankMetrics!.map((r) => [r.k, r] as [number, RankMetricsAtK]));
      return {
        strategy,
        tokens: m.avgRetrievedTokens ?? null,
        tokensInterval: m.retrievedTokensInterval ?? null,
        measures: MEASURES.map(({ label, field }) => ({
          label,
          cells: RANK_CUTS.map((k) => ({ value: byK.get(k)?.[field] ?? null, interval: byK.get(k)?.confidenceIntervals[field] ?? null })),
        })),
      };
    }),
  };
}
