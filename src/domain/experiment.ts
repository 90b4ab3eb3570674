import type { LatencyBreakdown, TokenUsage } from "./types.js";
import type { SearchMode } from "./variant-key.js";
import type { TimeParts } from "./time-estimate.js";
import type { QuestionSetProfile } from "./question-set.js";
import type { GateOutcome } from "./gate-outcome.js";

/**
 * What the headline may claim: a recommendation (the best strategy's lead over every other is
 * significant), no clear winner (some lead is within noise), a smoke test (the questions cannot
 * support a recommendation whatever the figures), or nothing to claim.
 */
export type VerdictStatus = "recommendation" | "no_clear_winner" | "smoke_test" | "single_strategy" | "not_scored";

/** Per strategy: how many negative controls it met, on how many it abstained, and the judge's average context relevance on them. */
export interface NegativeControlCounts {
  questions: number;
  abstained: number;
  avgContextRelevance: number | null;
  /** The same average over the answerable questions, for comparison. */
  avgContextRelevanceAnswerable: number | null;
}

/** How well a strategy's chunks are formed, over every document it chunked. */
export interface ChunkHealth {
  chunks: number;
  /** The size the strategy's searchable chunks aim at (chunk_size, child_size or max_tokens); null when it has none (imported chunks). */
  targetTokens: number | null;
  /** Share of chunks under a quarter of the target size; null without a target. */
  tinyShare: number | null;
  /** Share of chunks that stop inside a sentence: no sentence end, and the line goes on after them. */
  midSentenceShare: number | null;
  /** Tables of the documents (runs of table rows), and how many of them no single chunk holds whole. */
  tables: number;
  tablesSplit: number;
  tablesSplitShare: number | null;
  medianTokens: number | null;
  /** 25th and 75th percentile of chunk tokens. */
  tokensInterquartile: [number, number] | null;
}

/**
 * One question's ranking scored at one cut-off k: each at-k metric of the registry under its
 * `perQuestionField`. The built-in ones are named here; a registered one adds its field.
 */
export interface RankCut {
  k: number;
  /** Recall@k: Chroma's recall of the top k, the share of reference text they cover. */
  recall: number;
  /** MRR@k: 1/rank of the first of the top k covering at least half a reference; 0 when none does. */
  reciprocalRank: number;
  /** nDCG@k graded by the share of each reference the top k cover; null when no chunk of the strategy touches a reference. */
  ndcg: number | null;
}

/**
 * Every cut's means over a strategy's questions, with 95 % bootstrap intervals over questions: each
 * at-k metric of the registry under its `field`. The built-in ones are named here; a registered one adds its field.
 */
export interface RankMetricsAtK {
  k: number;
  recall: number | null;
  mrr: number | null;
  ndcg: number | null;
  confidenceIntervals: { recall: [number, number] | null; mrr: [number, number] | null; ndcg: [number, number] | null };
}

/**
 * Scores of one question under one strategy, each under its metric's `perQuestion.field` (the
 * metric registry: a metric registered beside the built-in ones named here adds its field);
 * null where the metric cannot be computed.
 */
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
  /** The deeper ranking scored at k = 1, 3, 5, 10 by every at-k metric (absent without references, and in experiments from before it was recorded). */
  rankCuts?: RankCut[];
  /** Tokens of the retrieved context the answer reads (absent in experiments from before it was recorded). */
  retrievedTokens?: number;
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
  /** Every at-k metric (Recall@k, MRR@k, nDCG@k) at k = 1, 3, 5, 10 with 95 % intervals ([] without references; absent in experiments from before them). */
  rankMetrics?: RankMetricsAtK[];
  /** Mean tokens of retrieved context per question, and its 95 % interval (absent in experiments from before them). */
  avgRetrievedTokens?: number | null;
  retrievedTokensInterval?: [number, number] | null;
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
  search?: Record<string, { retrieval: SearchMode; topK: number; embedder?: string }>;
  weights: Record<string, number>;
  hallucinationThreshold: number;
  /** How confidence intervals and comparisons were computed. */
  statistics: { method: string; resamples: number; confidenceLevel: number; seed: number };
  indexing: StrategyIndexing[];
  cost: { answersUsd: number; judgingUsd: number; embeddingsUsd: number; contextualisationUsd: number; referenceModel: string; referenceUsd: number };
  /** For dry runs: what the full run, started after it, would cost and take, and what the time is made of (includes and time: absent in older experiments). */
  fullRunEstimate: { costUsd: number; seconds: number; referenceUsd: number; includes?: string; time?: TimeParts } | null;
  stageSeconds: { processing: number; retrieval: number; generation: number; judging: number };
  /** Shared work, in no strategy's latency (absent in experiments from before it was measured apart: there the first strategy carried it). */
  sharedSeconds?: SharedSeconds;
  embeddings: { computed: number; cached: number };
  stoppedEarly: string | null;
  /** The gates the run checked (bench's CI options), stored so a report made later says them first; absent when none was set. */
  gates?: GateOutcome[];
  /**
   * How the questions' reference excerpts were found in the text (absent before this was
   * recorded): as written (`exact`), up to white space (`normalised`), as the same words in the
   * same order (`words`: markup, punctuation or quotes differ), at their offsets (`offsets`) or
   * near them (`relocated`: the offsets pointed elsewhere, e.g. into a Markdown source with its markup).
   */
  referencesLocated?: Record<string, number>;
  /**
   * Per imported chunks' name (docs/strategies.md "Your own chunks"), how its chunks were placed in the
   * extracted text: at their offsets, as written, up to white space and typography, or only as the same
   * words (`words`: approximately; markup, punctuation or hyphenation differ). Absent without imports.
   */
  chunksLocated?: Record<string, Record<string, number>>;
  /** Per imported chunks' name, where in its file the chunks found only as the same words are ("line 12"; the first 20). Absent when none. */
  chunksApproximate?: Record<string, string[]>;
  /** How well each index's chunks are formed, keyed by index key (absent in experiments from before it was recorded). */
  chunkHealth?: Record<string, ChunkHealth>;
  /** Chunkings the comparison cannot tell apart: identical chunks, documents shorter than one chunk (absent before it was recorded). */
  chunkWarnings?: string[];
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
  /** True when the interval excludes zero and at least 10 answerable questions were paired. */
  significant: boolean;
  questions: number;
  /** The paired questions the document can answer (negative controls left out): at least 10 are needed for a significant lead. Absent in older experiments. */
  answerableQuestions?: number;
  /**
   * When the lead is not significant: about how many paired questions would make a difference of
   * this size significant at 95 % with 80 % power (domain/power.ts); null when significant, or when
   * no realistic number would (over 10,000, or no difference). Absent in experiments from before it was recorded.
   */
  questionsNeeded?: number | null;
}

/** The documents a collection benchmark searched together. */
export interface ExperimentCollection {
  id: string;
  name: string;
  /** `warnings`: what reading the document warned of at its upload (pages left out), present only then. */
  documents: Array<{ id: string; filename: string; warnings?: string[] }>;
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
  /** The highest composite over this group's questions. */
  bestStrategy: string;
  /**
   * The strategy that wins there: bestStrategy when its lead over every other strategy is
   * significant over this group's questions, else null (they cannot tell; one strategy
   * benchmarked names no winner). Absent in experiments from before it was recorded.
   */
  winner?: string | null;
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
  /**
   * What the headline may claim (docs/metrics.md "Reading the verdict"): `recommendation` only when the
   * best's lead over every other strategy is significant and the questions can support one.
   */
  verdictStatus: VerdictStatus;
  /** The verdict's first sentence (VerdictBasis.headline): "Use X: …", "No clear winner among …", "Smoke test, not a recommendation: …". */
  headline: string;
  /** Strategies the best's lead over is not significant: those it cannot be separated from. */
  inseparableFromBest: string[];
  /** What the verdict stands on: the questions' provenance and vocabulary leak, what a lead between retrieval modes mixes. */
  verdictNotes: string[];
  /** Who wrote the questions and how much of their wording they copy from their excerpts (null in experiments from before it was recorded). */
  questionSet: QuestionSetProfile | null;
  /** How each strategy searched its chunks: dense, keyword or hybrid (empty in experiments from before it was recorded). */
  retrievalModes: Record<string, SearchMode>;
  /** Labels the run was given (`bench --tag sha=…`): git commit, branch, pull request; empty when none. */
  tags: Record<string, string>;
}

export interface ExperimentRecord extends Experiment {
  details: ExperimentDetails;
}
