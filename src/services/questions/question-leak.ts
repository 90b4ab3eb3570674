import { LEAK_QUESTION_THRESHOLD, type VocabularyLeak } from "../../domain/question-set.js";
import { ValidationError } from "../../errors.js";
import { questionLeak, vocabularyLeak } from "../../evaluators/question-set.js";
import type { CompleteFn } from "../../generators/cached-completer.js";
import type { Completion } from "../../generators/generator.js";
import { buildParaphrasePrompt, parseParaphraseReply } from "../../generators/paraphrase-prompt.js";

/**
 * What `questions generate` does with a question copying at least `maxLeak` of its content
 * words from its excerpt (docs/examples.md "Generated questions"): with an LLM it is reworded first; one
 * still copying is dropped, or with `keepLeaky` kept and flagged.
 */
export interface LeakPolicy {
  maxLeak: number;
  keepLeaky: boolean;
}

/** The `flag` a kept question copying its excerpt carries in the written file. */
export const LEAK_FLAG = "copies its excerpt";

/** One paraphrase call: the question, the model's rewrite (null when the reply was malformed), their leaks, and whether the rewrite was kept. */
export interface ParaphraseAttempt {
  question: string;
  rewrite: string | null;
  leakBefore: number;
  leakAfter: number | null;
  kept: boolean;
}

/** The written set's vocabulary leak (at the policy's threshold), the policy, and every paraphrase call. */
export interface GeneratedSetLeak extends VocabularyLeak {
  keepLeaky: boolean;
  /** The paraphrase prompt (LLM mode), null for template questions. */
  paraphrasePrompt: string | null;
  paraphrases: ParaphraseAttempt[];
}

export function leakPolicy(input: { maxLeak?: number; keepLeaky?: boolean }): LeakPolicy {
  const maxLeak = input.maxLeak ?? LEAK_QUESTION_THRESHOLD;
  if (!(maxLeak > 0 && maxLeak <= 1)) throw new ValidationError(`max leak must be a number in (0, 1], got ${input.maxLeak}`);
  return { maxLeak, keepLeaky: input.keepLeaky ?? false };
}

/** At or above the threshold, as `questions validate` counts a question copying its excerpt. */
export function isLeaky(leak: number | null, policy: LeakPolicy): leak is number {
  return leak !== null && leak >= policy.maxLeak;
}

export function leakPercent(leak: number): string {
  return `${(100 * leak).toFixed(0)} %`;
}

/** Each question with its leak (null without a reference excerpt) and, when it copies its excerpt, the flag. */
export function withLeak<Q extends { question: string; expectedAnswer: string | null; references: Array<{ text: string }> }>(
  questions: Q[],
  policy: LeakPolicy,
  paraphrases: ParaphraseAttempt[],
  paraphrasePrompt: string | null,
): { questions: Array<Q & { leak: number | null; flag?: string }>; leak: GeneratedSetLeak } {
  const annotated = questions.map((q) => {
    const leak = questionLeak(
      q.question,
      q.references.map((r) => r.text),
    );
    return { ...q, leak: leak === null ? null : Number(leak.toFixed(3)), ...(isLeaky(leak, policy) ? { flag: LEAK_FLAG } : {}) };
  });
  return {
    questions: annotated,
    leak: { ...vocabularyLeak(questions, policy.maxLeak), keepLeaky: policy.keepLeaky, paraphrasePrompt, paraphrases },
  };
}

/** A generated LLM question after the leak screen: its final wording, or why it is dropped; the paraphrase call made, if any. */
export interface ScreenedQuestion {
  question: string;
  /** Why the question is dropped (it still copies its excerpt and leaky questions are not kept); null to keep it. */
  drop: string | null;
  paraphrase: ParaphraseAttempt | null;
  /** The paraphrase call's completion, for the caller's call, cache and token counts; null when no call was made. */
  completion: Completion | null;
}

/**
 * The paraphrase step: a question copying its excerpt is sent back to the model once (when
 * `complete` is given: the call budget allows it) and the rewrite is kept only if it copies less
 * and stays under the threshold; otherwise the question is dropped, or kept (flagged later by
 * {@link withLeak}) under `keepLeaky`.
 */
export async function screenLlmQuestion(args: {
  question: string;
  answer: string | null;
  excerpts: string[];
  policy: LeakPolicy;
  complete: CompleteFn | null;
  signal?: AbortSignal;
}): Promise<ScreenedQuestion> {
  const { question, answer, excerpts, policy } = args;
  const leak = questionLeak(question, excerpts);
  if (!isLeaky(leak, policy)) return { question, drop: null, paraphrase: null, completion: null };
  let paraphrase: ParaphraseAttempt | null = null;
  let completion: Completion | null = null;
  if (args.complete) {
    completion = await args.complete(buildParaphrasePrompt(question, answer, excerpts), args.signal, (text) => parseParaphraseReply(text) !== null);
    const rewrite = parseParaphraseReply(completion.text);
    const leakAfter = rewrite === null ? null : questionLeak(rewrite, excerpts);
    // Under the threshold, hence lower than the original's, which is at or above it.
    const kept = rewrite !== null && leakAfter !== null && !isLeaky(leakAfter, policy);
    paraphrase = { question, rewrite, leakBefore: leak, leakAfter, kept };
    if (kept) return { question: rewrite, drop: null, paraphrase, completion };
  }
  if (policy.keepLeaky) return { question, drop: null, paraphrase, completion };
  const why = !paraphrase
    ? "no call left in the budget to reword it"
    : paraphrase.rewrite === null
      ? "the rewording reply was malformed"
      : paraphrase.leakAfter === null
        ? `its rewording has no content word left: "${paraphrase.rewrite}"`
        : `its rewording copies ${leakPercent(paraphrase.leakAfter)}: "${paraphrase.rewrite}"`;
  return { question, drop: `${leakPercent(leak)} of its content words are in its excerpt (≥ ${leakPercent(policy.maxLeak)}); ${why}`, paraphrase, completion };
}
