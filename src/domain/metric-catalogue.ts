import type { AggregateMetrics } from "./experiment.js";

/** How a metric's number reads: its range or unit. */
export type MetricScale = "0-10" | "0-1" | "seconds" | "USD";
export type MetricDirection = "higher" | "lower";

export interface MetricDefinition {
  /** Wire name, as in `aggregate_metrics`, `--fail-under` and reports. */
  key: string;
  /** Short column header. */
  label: string;
  scale: MetricScale;
  /** Which way is better: gates and tie-breaks follow it. */
  direction: MetricDirection;
  /** One line saying what the number measures. */
  definition: string;
  /** The AggregateMetrics field holding the strategy's value. */
  field: keyof AggregateMetrics;
  /** The per-question field of QuestionMetrics it averages, when it is a mean over questions. */
  perQuestion?:
    | "recall"
    | "precision"
    | "iou"
    | "retrievalEfficiency"
    | "precisionOmega"
    | "hit"
    | "reciprocalRank"
    | "contextRelevance"
    | "answerSimilarity"
    | "faithfulness";
}

/**
 * Every metric chunkeval reports, with its scale, direction and definition (ARCHITECTURE
 * convention 16): these travel into JSON exports and every scorecard header, so a reader never
 * has to guess whether 0.9 is good or what range a number lives in.
 */
export const METRICS: readonly MetricDefinition[] = [
  {
    key: "composite_score",
    label: "composite",
    scale: "0-10",
    direction: "higher",
    field: "compositeScore",
    definition: "weighted mean of the measured quality metrics (each on 0-10); metrics that could not be measured drop out and the rest are re-weighted",
  },
  {
    key: "avg_context_relevance",
    label: "ctx relevance",
    scale: "0-10",
    direction: "higher",
    field: "avgContextRelevance",
    perQuestion: "contextRelevance",
    definition: "did the retrieved context hold what the question needs: how close its best passage comes to the best passage anywhere in the document",
  },
  {
    key: "avg_answer_similarity",
    label: "answer sim",
    scale: "0-10",
    direction: "higher",
    field: "avgAnswerSimilarity",
    perQuestion: "answerSimilarity",
    definition: "how much of the expected answer's facts (numbers, names, key terms) and meaning the answer contains, whatever its length",
  },
  {
    key: "avg_faithfulness",
    label: "faithful",
    scale: "0-10",
    direction: "higher",
    field: "avgFaithfulness",
    perQuestion: "faithfulness",
    definition: "share of the answer's statements supported by the retrieved context, with their numbers, names and negations",
  },
  {
    key: "hallucination_rate",
    label: "halluc",
    scale: "0-1",
    direction: "lower",
    field: "hallucinationRate",
    definition: "share of answered questions whose faithfulness is below the hallucination threshold",
  },
  {
    key: "avg_recall",
    label: "recall",
    scale: "0-1",
    direction: "higher",
    field: "avgRecall",
    perQuestion: "recall",
    definition: "share of the reference excerpts' characters found in the retrieved chunks (Chroma)",
  },
  {
    key: "avg_precision",
    label: "precision",
    scale: "0-1",
    direction: "higher",
    field: "avgPrecision",
    perQuestion: "precision",
    definition: "share of the retrieved chunks' characters that are reference text (Chroma)",
  },
  {
    key: "avg_iou",
    label: "IoU",
    scale: "0-1",
    direction: "higher",
    field: "avgIou",
    perQuestion: "iou",
    definition: "reference characters retrieved over retrieved plus missed reference characters (Chroma)",
  },
  {
    key: "avg_retrieval_efficiency",
    label: "efficiency",
    scale: "0-1",
    direction: "higher",
    field: "avgRetrievalEfficiency",
    perQuestion: "retrievalEfficiency",
    definition:
      "IoU on a log scale from retrieving the whole document (0) to retrieving exactly the reference text (1): " +
      "each halving of the extra text retrieved counts the same",
  },
  {
    key: "avg_precision_omega",
    label: "precision Ω",
    scale: "0-1",
    direction: "higher",
    field: "avgPrecisionOmega",
    perQuestion: "precisionOmega",
    definition:
      "precision if exactly the chunks touching the references were retrieved: how tightly the chunker carves the excerpts, independent of retrieval (Chroma)",
  },
  {
    key: "hit_rate",
    label: "hit rate",
    scale: "0-1",
    direction: "higher",
    field: "hitRate",
    perQuestion: "hit",
    definition: "share of questions where some retrieved chunk covers at least half of a reference excerpt",
  },
  {
    key: "mrr",
    label: "MRR",
    scale: "0-1",
    direction: "higher",
    field: "mrr",
    perQuestion: "reciprocalRank",
    definition: "mean of 1/rank of the first retrieved chunk covering half of a reference excerpt (0 when none)",
  },
  {
    key: "avg_latency_seconds",
    label: "s/question",
    scale: "seconds",
    direction: "lower",
    field: "avgLatencySeconds",
    definition: "mean time this strategy takes to answer one question: search and generate (embedding the question is shared by every strategy, timed apart)",
  },
  {
    key: "cost_usd",
    label: "cost",
    scale: "USD",
    direction: "lower",
    field: "costUsd",
    definition: "what the strategy's indexing, answers and judging cost with the configured providers",
  },
];

/** The scorecard's columns (console and CI summary): metric keys from the catalogue, with the digits they are shown with. */
export const SCORECARD_METRICS: ReadonlyArray<[string, number]> = [
  ["composite_score", 2],
  ["avg_context_relevance", 2],
  ["avg_answer_similarity", 2],
  ["avg_faithfulness", 2],
  ["hallucination_rate", 3],
  ["avg_recall", 3],
  ["avg_iou", 3],
  ["avg_retrieval_efficiency", 3],
  ["hit_rate", 3],
  ["mrr", 3],
  ["avg_latency_seconds", 3],
];

export const METRIC_KEYS: readonly string[] = METRICS.map((m) => m.key);

export function metricDefinition(key: string): MetricDefinition | undefined {
  return METRICS.find((m) => m.key === key);
}

export function metricValue(m: AggregateMetrics, key: string): number | null {
  const definition = metricDefinition(key);
  const v = definition ? m[definition.field] : undefined;
  return typeof v === "number" ? v : null;
}

/** "recall (0-1, higher is better)": a header that carries the scale and direction. */
export function describeScale(definition: MetricDefinition): string {
  return `${definition.scale}, ${definition.direction} is better`;
}

/** Definitions keyed by metric, for JSON exports. */
export function metricDefinitionsForExport(): Record<string, { scale: MetricScale; direction: MetricDirection; definition: string }> {
  return Object.fromEntries(METRICS.map((m) => [m.key, { scale: m.scale, direction: m.direction, definition: m.definition }]));
}
