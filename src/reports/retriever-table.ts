import type { ExperimentRecord } from "../domain/experiment.js";
import { chunksKey } from "../domain/retriever-agreement.js";
import { SEARCH_MODES, type SearchMode } from "../domain/variant-key.js";

export interface RetrieverTable {
  retrievers: SearchMode[];
  /** One row per set of chunks (a strategy or chunking variant), one composite per retriever (null: not run that way, or not scored). */
  rows: Array<{ chunks: string; cells: Array<{ value: number | null; best: boolean }> }>;
}

/**
 * Strategy × retriever, by composite: the same chunks searched each way a run searched them, the
 * highest of each retriever's column marked. Null unless the run searched at least two ways and some
 * chunks were searched more than one way (`--retrievers`): otherwise the scorecard says it all.
 */
export function retrieverTable(e: ExperimentRecord): RetrieverTable | null {
  const search = e.details.search ?? {};
  const modeOf = (variant: string) => search[variant]?.retrieval;
  const retrievers = SEARCH_MODES.filter((m) => e.strategiesUsed.some((s) => modeOf(s) === m));
  const chunks = [...new Set(e.strategiesUsed.map(chunksKey))];
  if (retrievers.length < 2 || chunks.length === e.strategiesUsed.length) return null;
  const composite = (c: string, m: SearchMode) => {
    const variant = e.strategiesUsed.find((s) => chunksKey(s) === c && modeOf(s) === m);
    return variant === undefined ? null : (e.aggregateMetrics[variant]?.compositeScore ?? null);
  };
  const columnBest = retrievers.map((m) => Math.max(...chunks.map((c) => composite(c, m) ?? -Infinity)));
  return {
    retrievers,
    rows: chunks.map((c) => ({
      chunks: c,
      cells: retrievers.map((m, i) => {
        const value = composite(c, m);
        return { value, best: value !== null && value === columnBest[i] };
      }),
    })),
  };
}
