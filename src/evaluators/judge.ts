import type { TokenUsage } from "../domain/types.js";

export interface JudgeInput {
  question: string;
  answer: string;
  /** False when the generator said the context holds no answer: faithfulness is then not scored. */
  answered: boolean;
  /** False when the configuration cannot measure faithfulness (answers copied from the context): it is then null. */
  measureFaithfulness: boolean;
  contexts: string[];
  /** The document's extracted text: context relevance compares the context with the best the document holds. */
  document: string;
  /** What the answer should say: the expected answer, else the reference excerpts, else null. */
  target: string | null;
}

export interface JudgeVerdict {
  contextRelevance: number;
  faithfulness: number | null;
  answerSimilarity: number | null;
  usage: TokenUsage;
}

/** Scores an answer and its context, each on 0-10 (port). */
export interface Judge {
  readonly name: string;
  judge(input: JudgeInput, signal?: AbortSignal): Promise<JudgeVerdict>;
}
