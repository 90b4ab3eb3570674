import type { ExperimentRecord } from "../domain/experiment.js";
import { EMBEDDER_AXIS, RETRIEVER_AXIS, type RunAxis } from "../domain/retriever-agreement.js";
import { SEARCH_MODES, withoutParameter } from "../domain/variant-key.js";

export interface AxisTable {
  /** "retriever" or "embedder": the columns' kind, as the reports title the table ("Strategy × retriever"). */
  axis: string;
  /** The axis's values, one column each: search modes, embedder specs. */
  columns: string[];
  /** One row per chunking run every way (the variant without the axis's parameter), one composite per column (null: not run that way, or not scored). */
  rows: Array<{ chunks: string; cells: Array<{ value: number | null; best: boolean }> }>;
}

/**
 * Strategy × axis value, by composite: the same chunking run each way the run ran it, the highest of
 * each column marked. Null unless the run used at least two values and some chunking was run more
 * than one way (`--retrievers`, `--embedders`): otherwise the scorecard says it all.
 */
function axisTable(e: ExperimentRecord, axis: RunAxis, name: string, order: string[], valueOf: (variant: string) => string | undefined): AxisTable | null {
  const columns = order.filter((value) => e.strategiesUsed.some((s) => valueOf(s) === value));
  const rowKey = (variant: string) => withoutParameter(variant, axis.parameter);
  const chunks = [...new Set(e.strategiesUsed.map(rowKey))];
  if (columns.length < 2 || chunks.length === e.strategiesUsed.length) return null;
  const composite = (c: string, value: string) => {
    const variant = e.strategiesUsed.find((s) => rowKey(s) === c && valueOf(s) === value);
    return variant === undefined ? null : (e.aggregateMetrics[variant]?.compositeScore ?? null);
  };
  const columnBest = columns.map((value) => Math.max(...chunks.map((c) => composite(c, value) ?? -Infinity)));
  return {
    axis: name,
    columns,
    rows: chunks.map((c) => ({
      chunks: c,
      cells: columns.map((value, i) => {
        const score = composite(c, value);
        return { value: score, best: score !== null && score === columnBest[i] };
      }),
    })),
  };
}

/** The run's strategy × retriever and strategy × embedder tables, those it has (--retrievers, --embedders). */
export function axisTables(e: ExperimentRecord): AxisTable[] {
  const search = e.details.search ?? {};
  const embedderOf = (variant: string) => (search[variant] ? (search[variant].embedder ?? e.details.embedder) : undefined);
  const embedders = [...new Set(e.strategiesUsed.map(embedderOf).filter((x): x is string => x !== undefined))];
  return [
    axisTable(e, RETRIEVER_AXIS, "retriever", [...SEARCH_MODES], (variant) => search[variant]?.retrieval),
    axisTable(e, EMBEDDER_AXIS, "embedder", embedders, embedderOf),
  ].filter((t): t is AxisTable => t !== null);
}
