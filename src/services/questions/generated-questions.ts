// What question generation is asked (`GenerateQuestionsInput`) and what it gives: the questions,
// the file `bench` reads, and the metadata that says how they were made.
import type { RunOptions, TokenUsage } from "../../domain/types.js";
import type { Span } from "../../text/spans.js";
import type { CorpusTarget } from "../corpus/collections.js";
import type { GeneratedSetLeak } from "./question-leak.js";

/**
 * `document`: an existing document id, or a file to upload (reused if the same bytes were
 * uploaded before); or `collection`: the questions are spread over its documents.
 */
export interface GenerateQuestionsInput extends RunOptions, CorpusTarget {
  count: number;
  /** `openai:<model>` for LLM questions, `template` for the offline generator; default: the configured generator. */
  generator?: string;
  /** Chat calls the LLM mode may make in all (default: count × `questionCallsPerQuestion`). */
  maxCalls?: number;
  /** The most `maxCalls` may be (a server's http_max_generation_calls): above it is refused, and the default budget is cut to it. */
  maxCallsCap?: number;
  minExcerptSimilarity?: number;
  duplicateSimilarity?: number;
  /** Share of a question's content words copied from its excerpt from which it is reworded (LLM), then dropped or flagged (default 0.75). */
  maxLeak?: number;
  /** Keep the questions still copying their excerpt, flagged, instead of dropping them. */
  keepLeaky?: boolean;
  /** Negative controls wanted besides `count`: questions the document cannot answer (default 0). */
  negatives?: number;
  /** With an LLM: questions wanted besides `count` whose answer spans two passages, with references in both (default 0). */
  multiHop?: number;
}

/** One item of a questions file, in the shape `bench` reads (references carry their offsets). */
export interface GeneratedQuestion {
  question: string;
  expectedAnswer: string | null;
  /** In a collection each reference names its document's file name, as `bench` reads it. */
  references: Array<Span & { text: string; document?: string }>;
  /** The share of its content words found in its excerpts (null without any), and `flag` when that copies at least the threshold. */
  leak?: number | null;
  flag?: string;
  /** False for a negative control (no expected answer, no reference). */
  answerable?: boolean;
}

export type DropReason = "poor_excerpt" | "duplicate" | "malformed" | "copies_excerpt";

export interface QuestionGenerationMetadata {
  /** `llm` or `template`: template questions are a smoke test, said plainly in `notice`. */
  kind: "llm" | "template";
  notice: string | null;
  generator: string;
  model: string | null;
  prompt: string | null;
  /** The document, or for a collection the collection (its name as the file name). */
  document: { id: string; filename: string; title: string };
  /** For a collection: how many questions each document got (in proportion to its length). */
  collection: { id: string; name: string; documents: Array<{ id: string; filename: string; questions: number; skipped: string | null }> } | null;
  thresholds: { minExcerptSimilarity: number; duplicateSimilarity: number } | null;
  duplicateEmbedder: string | null;
  budget: { maxCalls: number; malformedRetries: number } | null;
  counts: {
    requested: number;
    kept: number;
    /** Chat calls made (cached replies included) and how many of them the cache served. */
    calls: number;
    cachedReplies: number;
    malformedReplies: number;
    passagesAvailable: number;
    passagesUsed: number;
    dropped: Record<DropReason, number>;
  };
  /** Every dropped question with its reason, so a user can see what the filters removed. */
  drops: Array<{ reason: DropReason; question: string | null; detail: string }>;
  tokenUsage: TokenUsage;
  costUsd: number;
  createdAt: string;
  /** The written set's vocabulary leak, the threshold, and the paraphrase calls (docs/examples.md "Generated questions"). */
  leak: GeneratedSetLeak;
  /** Negative controls asked for and kept (template: a real section about a subject the document never mentions; LLM: the model's word). */
  negatives: { requested: number; kept: number; prompt: string | null };
  /** Questions whose answer spans two passages (LLM only), asked for and kept. */
  multiHop: { requested: number; kept: number; prompt: string | null };
}

export interface GeneratedQuestionsFile {
  metadata: QuestionGenerationMetadata;
  questions: GeneratedQuestion[];
}
