import type { RankCut, RankMetricsAtK } from "./experiment.js";
import { mean, type CharSpan } from "./metrics.js";
import { bootstrapMeans, percentileInterval } from "./statistics.js";
import type { AtKMetric } from "./metric-registry/metric.js";

/** The cut-offs every question's ranking is scored at. */
export const RANK_CUTS = [1, 3, 5, 10] as const;
/** How deep a benchmark ranks for every question: the deepest cut, or the configured top-k when deeper. */
export const rankingDepth = (topK: number) => Math.max(RANK_CUTS[RANK_CUTS.length - 1]!, topK);

/**
 * One question's ranking (the deepest retrieval, in rank order) scored at every cut of RANK_CUTS by
 * every registered at-k metric; `units` are every chunk the strategy can return (nDCG's best ordering).
 */
export function rankCuts(references: CharSpan[], ranked: CharSpan[], units: CharSpan[], atK: readonly AtKMetric[]): RankCut[] {
  const ranking = { references, ranked, retrievable: units };
  const columns = atK.map((m) => [m.perQuestionField, m.atCuts(ranking, RANK_CUTS)] as const);
  return RANK_CUTS.map((k, i) => {
    const cut: Record<string, number | null> = { k };
    for (const [field, values] of columns) cut[field] = values[i] ?? null;
    return cut as unknown as RankCut;
  });
}

/** What the cut aggregates read of a question's result. */
export interface RankedQuestion {
  error: string | null;
  rankCuts?: RankCut[];
}

/** Per cut, each at-k metric's mean over the questions that were ranked, with its 95 % bootstrap interval over those questions; [] when none was. */
export function aggregateRankCuts(results: RankedQuestion[], atK: readonly AtKMetric[]): RankMetricsAtK[] {
  const ranked = results.filter((r) => r.error === null && r.rankCuts && r.rankCuts.length > 0).map((r) => r.rankCuts!);
  if (ranked.length === 0) return [];
  return RANK_CUTS.map((k) => {
    const cutsAtK = ranked.map((cuts) => cuts.find((c) => c.k === k)! as unknown as Record<string, number | null | undefined>);
    const means: Record<string, number | null> = {};
    const confidenceIntervals: Record<string, [number, number] | null> = {};
    for (const metric of atK) {
      // A question stored before the metric was registered has no value for it.
      const values = cutsAtK.map((cut) => cut[metric.perQuestionField] ?? null);
      means[metric.field] = mean(values);
      confidenceIntervals[metric.field] = percentileInterval(bootstrapMeans(values));
    }
    return { k, ...means, confidenceIntervals } as unknown as RankMetricsAtK;
  });
}
