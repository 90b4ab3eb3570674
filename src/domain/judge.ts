import type { TokenUsage } from "./types.js";
import type { SearchMode } from "./variant-key.js";

export interface JudgeInput {
  question: string;
  answer: string;
  /** False when the generator said the context holds no answer: faithfulness is then not scored. */
  answered: boolean;
  /** False when the configuration cannot measure faithfulness (answers copied from the context): it is then null. */
  measureFaithfulness: boolean;
  contexts: string[];
  /** How the contexts were retrieved: a judge must not score a context by the evidence that retrieved it. */
  retrieval: SearchMode;
  /** The embedder the contexts were searched with, when it is not the judge's own (a variant's `@embedder=`). */
  retrieverEmbedder?: string;
  /** The document's extracted text: context relevance compares the context with the best the document holds. */
  document: string;
  /** What the answer should say: the expected answer, else the reference excerpts, else null. */
  target: string | null;
}

export interface JudgeVerdict {
  /** Null when the judge has no evidence independent of the retrieval (contextRelevanceUnmeasurable says why). */
  contextRelevance: number | null;
  faithfulness: number | null;
  answerSimilarity: number | null;
  usage: TokenUsage;
}

/** Scores an answer and its context, each on 0-10 (port). */
export interface Judge {
  readonly name: string;
  /** Why this judge cannot measure context relevance of contexts retrieved this way (with this embedder; default its own), or null when it can. */
  contextRelevanceUnmeasurable(retrieval: SearchMode, retrieverEmbedder?: string): string | null;
  /** What scores context relevance of contexts retrieved this way ("lexical evidence", "the model"), or null when it is not measured. */
  contextRelevanceJudgedBy(retrieval: SearchMode, retrieverEmbedder?: string): string | null;
  judge(input: JudgeInput, signal?: AbortSignal): Promise<JudgeVerdict>;
}
