import type { LatencyBreakdown, TokenUsage } from "./types.js";

/** Scores of one question under one strategy; null where the metric cannot be computed. */
export interface QuestionMetrics {
  recall: number | null;
  precision: number | null;
  iou: number | null;
  hit: number | null;
  reciprocalRank: number | null;
  contextRelevance: number | null;
  answerSimilarity: number | null;
  faithfulness: number | null;
}

export interface QuestionResult {
  question: string;
  expectedAnswer: string | null;
  references: Array<{ text: string; start: number; end: number }>;
  retrieved: Array<{ chunkId: string; score: number; start: number; end: number; text: string; parentId: string | null }>;
  answer: string | null;
  /** False when the generator said the context holds no answer (not counted for hallucination). */
  answered: boolean;
  metrics: QuestionMetrics;
  latency: LatencyBreakdown;
  answerTokens: TokenUsage;
  judgeTokens: TokenUsage;
  stageSeconds: { retrieval: number; generation: number; judging: number };
  error: string | null;
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
  hitRate: number | null;
  mrr: number | null;
  compositeScore: number | null;
  /** Spread (population standard deviation) of each 0-10 / 0-1 metric across questions. */
  spread: Record<string, number | null>;
  avgLatencySeconds: number | null;
  totalLatencySeconds: number;
  tokens: TokenUsage;
  costUsd: number;
}

export interface StrategyIndexing {
  strategy: string;
  chunks: number;
  seconds: number;
  embeddedTokens: number;
  costUsd: number;
  tokenSizes: number[];
  reused: boolean;
}

export interface ExperimentDetails {
  questionsSource: string;
  topK: number;
  dryRun: boolean;
  embedder: string;
  generator: string;
  judge: string;
  strategyOptions: Record<string, Record<string, number>>;
  weights: Record<string, number>;
  hallucinationThreshold: number;
  indexing: StrategyIndexing[];
  cost: { answersUsd: number; judgingUsd: number; embeddingsUsd: number; contextualisationUsd: number; referenceModel: string; referenceUsd: number };
  /** For dry runs: what the full run would cost and take. */
  fullRunEstimate: { costUsd: number; seconds: number; referenceUsd: number } | null;
  stageSeconds: { processing: number; retrieval: number; generation: number; judging: number };
  embeddings: { computed: number; cached: number };
  stoppedEarly: string | null;
}

export interface Experiment {
  experimentId: string;
  documentId: string;
  strategiesUsed: string[];
  questionsCount: number;
  aggregateMetrics: Record<string, AggregateMetrics>;
  bestStrategy: string;
  totalLatencySeconds: number;
  estimatedCostUsd: number;
  createdAt: string;
}

export interface ExperimentRecord extends Experiment {
  details: ExperimentDetails;
}
