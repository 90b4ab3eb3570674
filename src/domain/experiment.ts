import type { NegativeControlCounts } from "./negative-controls.js";
import type { LatencyBreakdown, TokenUsage } from "./types.js";
import type { SearchMode } from "./variant-key.js";

/** Scores of one question under one strategy; null where the metric cannot be computed. */
export interface QuestionMetrics {
  recall: number | null;
  precision: number | null;
  iou: number | null;
  /** IoU on a log scale between retrieving the whole document (0) and exactly the references (1). */
  retrievalEfficiency: number | null;
  /** Chroma's Precision_Ω: precision of an oracle that retrieves exactly the chunks touching the references. */
  precisionOmega: number | null;
  hit: number | null;
  reciprocalRank: number | null;
  contextRelevance: number | null;
  answerSimilarity: number | null;
  faithfulness: number | null;
}

export interface QuestionResult {
  question: string;
  expectedAnswer: string | null;
  /** Offsets are in the reference's document (absent in experiments from before collections: the only document). */
  references: Array<{ text: string; start: number; end: number; documentId?: string }>;
  retrieved: Array<{ chunkId: string; documentId?: string; score: number; start: number; end: number; text: string; parentId: string | null }>;
  answer: string | null;
  /** False when the generator said the context holds no answer (not counted for hallucination). */
  answered: boolean;
  metrics: QuestionMetrics;
  latency: LatencyBreakdown;
  answerTokens: TokenUsage;
  judgeTokens: TokenUsage;
  stageSeconds: { retrieval: number; generation: number; judging: number };
  error: string | null;
  /** False for a negative control (a question the document cannot answer: see negative-controls.ts); absent means answerable. */
  answerable?: boolean;
}

/** AggregateMetrics of SPEC §2 plus retrieval metrics and run figures (our extension). */
export interface AggregateMetrics {
  avgContextRelevance: number | null;
  avgAnswerSimilarity: number | null;
  avgFaithfulness: number | null;
  hallucinationRate: number | null;
  totalQuestions: number;
  failedQuestions: number;
  avgRecall: number | null;
  avgPrecision: number | null;
  avgIou: number | null;
  avgRetrievalEfficiency: number | null;
  avgPrecisionOmega: number | null;
  hitRate: number | null;
  mrr: number | null;
  compositeScore: number | null;
  /** Composite points each measured metric contributed, keyed by metric; they add up to the composite. */
  compositeContributions: Record<string, number> | null;
  /** 95 % bootstrap interval over questions of each metric that was measured, keyed by metric. */
  confidenceIntervals: Record<string, [number, number] | null>;
  /** Why each metric that is null could not be measured, keyed by metric. */
  missing: Record<string, string>;
  /** Mean seconds per question: this strategy's search and answer (work all strategies share is in ExperimentDetails.sharedSeconds). */
  avgLatencySeconds: number | null;
  /**
   * 95 % bootstrap interval over questions of avgLatencySeconds: the measured spread, within which
   * no strategy is called faster. Wall-clock time, so unlike confidenceIntervals it differs from
   * run to run (absent in experiments from before it was recorded).
   */
  latencyInterval?: [number, number] | null;
  totalLatencySeconds: number;
  tokens: TokenUsage;
  costUsd: number;
}

export interface StrategyIndexing {
  strategy: string;
  chunks: number;
  seconds: number;
  embeddedTokens: number;
  /** LLM tokens contextualisation sent for this strategy in this run (0 when reused or no LLM). */
  contextTokens: number;
  costUsd: number;
  tokenSizes: number[];
  reused: boolean;
}

/**
 * Work every strategy shares, timed once before any question is timed and charged to none of
 * them: embedding the questions (once, for every strategy) and warming up (one untimed search per
 * strategy, and one answer with a local generator: opening the vector table, loading models).
 */
export interface SharedSeconds {
  questionEmbedding: number;
  /**
   * Questions embedded (0 when every strategy searched by keyword alone); a question whose
   * embedding failed is not counted, and fails in every dense or hybrid search.
   */
  questionsEmbedded: number;
  warmUp: number;
}

export interface ExperimentDetails {
  /** The benchmarked document's file name (a collection's names are in Experiment.collection; absent in experiments from before it was recorded). */
  documentName?: string;
  questionsSource: string;
  topK: number;
  dryRun: boolean;
  embedder: string;
  generator: string;
  judge: string;
  strategyOptions: Record<string, Record<string, number>>;
  /** How each variant was searched (absent in experiments from before variants existed). */
  search?: Record<string, { retrieval: SearchMode; topK: number }>;
  weights: Record<string, number>;
  hallucinationThreshold: number;
  /** How confidence intervals and comparisons were computed. */
  statistics: { method: string; resamples: number; confidenceLevel: number; seed: number };
  indexing: StrategyIndexing[];
  cost: { answersUsd: number; judgingUsd: number; embeddingsUsd: number; contextualisationUsd: number; referenceModel: string; referenceUsd: number };
  /** For dry runs: what the full run would cost and take. */
  fullRunEstimate: { costUsd: number; seconds: number; referenceUsd: number } | null;
  stageSeconds: { processing: number; retrieval: number; generation: number; judging: number };
  /** Shared work, in no strategy's latency (absent in experiments from before it was measured apart: there the first strategy carried it). */
  sharedSeconds?: SharedSeconds;
  embeddings: { computed: number; cached: number };
  stoppedEarly: string | null;
  /**
   * How the questions' reference excerpts were found in the text (absent before this was
   * recorded): as written (`exact`), up to white space (`normalised`), as the same words in the
   * same order (`words`: markup, punctuation or quotes differ), at their offsets (`offsets`) or
   * near them (`relocated`: the offsets pointed elsewhere, e.g. into a Markdown source with its markup).
   */
  referencesLocated?: Record<string, number>;
  /** Per strategy, its abstentions on the questions marked unanswerable (absent when there were none). */
  negativeControls?: Record<string, NegativeControlCounts>;
}

/** The best strategy's composite against another's, paired over the same questions. */
export interface StrategyComparison {
  strategy: string;
  metric: "composite_score";
  /** Best minus this strategy, on 0-10. */
  difference: number | null;
  /** 95 % paired bootstrap interval of the difference. */
  confidenceInterval: [number, number] | null;
  pValue: number | null;
  /** True when the interval excludes zero. */
  significant: boolean;
  questions: number;
}

/** The documents a collection benchmark searched together. */
export interface ExperimentCollection {
  id: string;
  name: string;
  documents: Array<{ id: string; filename: string }>;
}

/**
 * Every strategy's metrics over the questions of one document of a collection (those whose
 * references all lie in it), with intervals, and which strategy wins there.
 */
export interface DocumentBreakdown {
  /** Null for the questions whose references span several documents, or that have none. */
  documentId: string | null;
  /** The document's file name, or "(several documents)" / "(no references)". */
  filename: string;
  questions: number;
  aggregateMetrics: Record<string, AggregateMetrics>;
  bestStrategy: string;
}

export interface Experiment {
  experimentId: string;
  /** The document benchmarked, or for a collection the collection's id (SPEC §2 keeps the field). */
  documentId: string;
  /** The collection benchmarked (null for one document): its pooled results are the aggregate metrics. */
  collection: ExperimentCollection | null;
  /** Per document of a collection (null for one document). */
  perDocument: DocumentBreakdown[] | null;
  strategiesUsed: string[];
  questionsCount: number;
  aggregateMetrics: Record<string, AggregateMetrics>;
  bestStrategy: string;
  totalLatencySeconds: number;
  estimatedCostUsd: number;
  createdAt: string;
  /** The recommendation with its confidence, in words. */
  verdict: string;
  comparisons: StrategyComparison[];
  /** Labels the run was given (`bench --tag sha=…`): git commit, branch, pull request; empty when none. */
  tags: Record<string, string>;
}

export interface ExperimentRecord extends Experiment {
  details: ExperimentDetails;
}
