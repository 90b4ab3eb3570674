// Questions a chat model writes passage by passage, each reference located in the document's text,
// with the questions it dropped counted by reason.
import { DEFAULTS } from "../../config/defaults.js";
import { addUsage } from "../../domain/metrics.js";
import { nowTimestamp } from "../../domain/ids.js";
import type { StoredDocument } from "../../domain/types.js";
import type { Embedder } from "../../embedders/embedder.js";
import type { CompleteFn } from "../../generators/cached-completer.js";
import type { Span } from "../../text/spans.js";
import { cosine } from "../../domain/vectors.js";
import { BenchmarkError, throwIfCancelled } from "../../errors.js";
import { costOf } from "../../generators/pricing.js";
import { buildQuestionPrompt, parseQuestionReply, QUESTION_PROMPT_TEMPLATE, type GeneratedQuestionReply } from "../../generators/question-prompt.js";
import { matchExcerpt } from "../../text/excerpt-match.js";
import type { ServiceContext } from "../context.js";
import { PARAPHRASE_PROMPT_TEMPLATE } from "../../generators/paraphrase-prompt.js";
import { screenLlmQuestion, withLeak, type LeakPolicy, type ParaphraseAttempt } from "./question-leak.js";
import { generateLlmNegatives } from "./negative-generation.js";
import { generateMultiHopQuestions } from "./multi-hop-generation.js";
import { askWithRetries, emptyTally, type CallTally } from "./ask-model.js";
import { MULTI_HOP_PROMPT_TEMPLATE } from "../../generators/multi-hop-prompt.js";
import { NEGATIVE_PROMPT_TEMPLATE } from "../../evaluators/negative-questions.js";
import type { DropReason, GenerateQuestionsInput, GeneratedQuestion, GeneratedQuestionsFile, QuestionGenerationMetadata } from "./generated-questions.js";
import { documentInfo, passages, spreadOrder } from "./question-passages.js";

/** Locates every excerpt of a reply; the reason it cannot be used, or the located references. */
function locateReferences(
  text: string,
  reply: Pick<GeneratedQuestionReply, "excerpts">,
  minSimilarity: number,
): { references: GeneratedQuestion["references"] } | { problem: string } {
  const references: GeneratedQuestion["references"] = [];
  for (const excerpt of reply.excerpts) {
    const match = matchExcerpt(text, excerpt);
    if (!match || match.similarity < minSimilarity) {
      const found = match ? `best ${match.method} match ${match.similarity.toFixed(2)} < ${minSimilarity}` : "no word of it in the document";
      return { problem: `excerpt not located (${found}): "${excerpt.slice(0, 80)}"` };
    }
    // The reference is the document's own text, so offsets and text agree whatever the method.
    references.push({ text: text.slice(match.start, match.end), start: match.start, end: match.end });
  }
  return { references };
}

/** What a generation spent (its model calls) and what it dropped, by reason, counted as it goes. */
interface GenerationTally extends CallTally {
  drops: QuestionGenerationMetadata["drops"];
  dropped: Record<DropReason, number>;
}

function dropInto(tally: GenerationTally, reason: DropReason, question: string | null, detail: string): void {
  tally.dropped[reason]++;
  tally.drops.push({ reason, question, detail });
}

/** A step generated apart (multi-hop questions, negative controls): its calls and drops added to the tally. */
function addStep(tally: GenerationTally, step: CallTally & { drops: Array<{ reason: DropReason; question: string; detail: string }> }): void {
  tally.calls += step.calls;
  tally.cachedReplies += step.cachedReplies;
  tally.malformedReplies += step.malformedReplies;
  tally.usage = addUsage(tally.usage, step.usage);
  for (const d of step.drops) dropInto(tally, d.reason, d.question, d.detail);
}

/** The call budget and its shares: the multi-hop questions' and negative controls' are kept for them. */
function llmBudget(input: GenerateQuestionsInput) {
  const negatives = input.negatives ?? 0;
  const multiHop = input.multiHop ?? 0;
  const wanted = input.count + negatives + multiHop;
  const maxCalls = input.maxCalls ?? wanted * DEFAULTS.questionCallsPerQuestion;
  return {
    negatives,
    multiHop,
    maxCalls,
    positiveCalls: Math.max(1, Math.round((maxCalls * input.count) / wanted)),
    multiHopCalls: Math.round((maxCalls * multiHop) / wanted),
  };
}

type Screen = (q: Pick<GeneratedQuestion, "question" | "expectedAnswer" | "references">, callsUpTo: number) => Promise<string | null>;

/**
 * The leak screen (question-leak.ts) over the tally: a question's final wording, or null when it
 * is dropped; a rewording call only while the tally's calls are under `callsUpTo`.
 */
function leakScreen(complete: CompleteFn, policy: LeakPolicy, tally: GenerationTally, paraphrases: ParaphraseAttempt[], signal?: AbortSignal): Screen {
  return async (q, callsUpTo) => {
    const excerpts = q.references.map((r) => r.text);
    const available = tally.calls < callsUpTo ? complete : null;
    const screened = await screenLlmQuestion({ question: q.question, answer: q.expectedAnswer, excerpts, policy, complete: available, signal });
    if (screened.completion) {
      tally.calls++;
      if (screened.completion.cached) tally.cachedReplies++;
      if (screened.paraphrase?.rewrite === null) tally.malformedReplies++;
      tally.usage = addUsage(tally.usage, screened.completion.usage);
    }
    if (screened.paraphrase) paraphrases.push(screened.paraphrase);
    if (screened.drop) dropInto(tally, "copies_excerpt", q.question, screened.drop);
    return screened.drop ? null : screened.question;
  };
}

interface KeptQuestion {
  question: GeneratedQuestion;
  vector: Float32Array;
}

/** The kept question most similar to `vector` (similarity -1 when none is kept). */
function nearestKept(kept: KeptQuestion[], vector: Float32Array): { similarity: number; question: string } {
  return kept.reduce(
    (best, k) => {
      const similarity = cosine(vector, k.vector);
      return similarity > best.similarity ? { similarity, question: k.question.question } : best;
    },
    { similarity: -1, question: "" },
  );
}

/** What passageQuestions asks with. */
interface PassageQuestionsRun {
  doc: StoredDocument;
  spans: Span[];
  /** Indices into spans in spread order. */
  order: number[];
  input: GenerateQuestionsInput;
  complete: CompleteFn;
  embedder: Embedder;
  tally: GenerationTally;
  screen: Screen;
  /** The calls the positive questions may use. */
  callsUpTo: number;
  minExcerptSimilarity: number;
  duplicateSimilarity: number;
}

/**
 * Passages in spread order, round after round (each round asks every passage for a question it
 * has not produced yet), until enough questions survive or the call budget is spent. Each reply's
 * excerpts are located, its wording screened for leaks, and a near-duplicate of a kept question dropped.
 */
async function passageQuestions(run: PassageQuestionsRun): Promise<{ kept: KeptQuestion[]; passagesUsed: number }> {
  const { doc, spans, order, input, tally } = run;
  const kept: KeptQuestion[] = [];
  const askedOf = new Map<number, string[]>();
  for (let k = 0; order.length > 0 && kept.length < input.count && tally.calls < run.callsUpTo; k++) {
    throwIfCancelled(input.signal);
    const index = order[k % order.length]!;
    if (!askedOf.has(index)) askedOf.set(index, []);
    const asked = askedOf.get(index)!;
    const passage = spans[index]!;
    const prompt = buildQuestionPrompt(doc.title, doc.text.slice(passage.start, passage.end), asked);
    const malformedBefore = tally.malformedReplies;
    const reply = await askWithRetries(run.complete, prompt, parseQuestionReply, tally, {
      retries: DEFAULTS.malformedReplyRetries,
      maxCalls: run.callsUpTo,
      signal: input.signal,
    });
    input.onProgress?.({
      stage: "generating",
      message: `${kept.length} of ${input.count} questions kept after ${tally.calls} calls`,
      done: kept.length,
      total: input.count,
    });
    if (!reply) {
      const malformed = tally.malformedReplies - malformedBefore;
      dropInto(tally, "malformed", null, `passage ${passage.start}-${passage.end}: no usable reply after ${malformed} malformed`);
      continue;
    }
    asked.push(reply.question);
    const located = locateReferences(doc.text, reply, run.minExcerptSimilarity);
    if ("problem" in located) {
      dropInto(tally, "poor_excerpt", reply.question, located.problem);
      continue;
    }
    // A question copying its excerpt is reworded (one more call, within the budget) before the duplicate check sees its final wording.
    const question = await run.screen({ question: reply.question, expectedAnswer: reply.answer, references: located.references }, run.callsUpTo);
    if (question === null) continue;
    const [vector] = await run.embedder.embed([question], input.signal);
    const nearest = nearestKept(kept, vector!);
    if (nearest.similarity >= run.duplicateSimilarity) {
      dropInto(tally, "duplicate", question, `similarity ${nearest.similarity.toFixed(3)} >= ${run.duplicateSimilarity} with "${nearest.question}"`);
      continue;
    }
    kept.push({ question: { question, expectedAnswer: reply.answer, references: located.references }, vector: vector! });
  }
  return { kept, passagesUsed: askedOf.size };
}

/**
 * Questions a chat model (`spec`) writes about `doc`: positive questions passage by passage, then
 * the multi-hop questions and negative controls asked for, each within its share of the call
 * budget, every question's wording screened for leaks of its excerpt (`policy`).
 */
export async function generateLlmQuestions(
  ctx: ServiceContext,
  doc: StoredDocument,
  spec: string,
  input: GenerateQuestionsInput,
  policy: LeakPolicy,
): Promise<GeneratedQuestionsFile> {
  const complete = await ctx.completer(spec);
  const embedder = await ctx.embedder();
  const minExcerptSimilarity = input.minExcerptSimilarity ?? DEFAULTS.minExcerptSimilarity;
  const duplicateSimilarity = input.duplicateSimilarity ?? DEFAULTS.duplicateQuestionSimilarity;
  const budget = llmBudget(input);
  const malformedRetries = DEFAULTS.malformedReplyRetries;
  const spans = passages(doc);
  const order = spreadOrder(spans.length);
  const tally: GenerationTally = { ...emptyTally(), drops: [], dropped: { poor_excerpt: 0, duplicate: 0, malformed: 0, copies_excerpt: 0 } };
  const paraphrases: ParaphraseAttempt[] = [];
  const screen = leakScreen(complete, policy, tally, paraphrases, input.signal);
  const { kept, passagesUsed } = await passageQuestions({
    doc,
    spans,
    order,
    input,
    complete,
    embedder,
    tally,
    screen,
    callsUpTo: budget.positiveCalls,
    minExcerptSimilarity,
    duplicateSimilarity,
  });

  // What the multi-hop questions and negative controls are asked with; each has its share of the budget.
  const rest = {
    doc,
    passages: order.map((i) => spans[i]!),
    malformedRetries,
    duplicateSimilarity,
    keptVectors: kept.map((k) => k.vector),
    complete,
    embedder,
    signal: input.signal,
  };
  const locate = (reply: { excerpts: string[] }) => locateReferences(doc.text, reply, minExcerptSimilarity);
  const spanning = await generateMultiHopQuestions({
    ...rest,
    count: budget.multiHop,
    maxCalls: Math.min(budget.multiHopCalls, budget.maxCalls - tally.calls),
    locate,
  });
  addStep(tally, spanning);
  // Multi-hop questions go through the same leak screen, their rewordings within the multi-hop share of the budget.
  const spanningKept: GeneratedQuestion[] = [];
  for (const q of spanning.questions) {
    const question = await screen(q, budget.positiveCalls + budget.multiHopCalls);
    if (question !== null) spanningKept.push({ ...q, question });
  }
  // Negative controls have no excerpt, so no leak to screen.
  const controls = await generateLlmNegatives({ ...rest, count: budget.negatives, maxCalls: budget.maxCalls - tally.calls });
  addStep(tally, controls);
  const positives = [...kept.map((k) => k.question), ...spanningKept];
  if (positives.length === 0) {
    const { dropped } = tally;
    throw new BenchmarkError(
      `no generated question survived (${tally.calls} calls: ${dropped.malformed} malformed, ${dropped.poor_excerpt} poor excerpts, ` +
        `${dropped.duplicate} duplicates, ${dropped.copies_excerpt} copying their excerpt)`,
    );
  }
  const { questions, leak } = withLeak<GeneratedQuestion>([...positives, ...controls.questions], policy, paraphrases, PARAPHRASE_PROMPT_TEMPLATE);
  const metadata: QuestionGenerationMetadata = {
    kind: "llm",
    notice: null,
    generator: spec,
    model: spec.slice("openai:".length),
    prompt: QUESTION_PROMPT_TEMPLATE,
    document: documentInfo(doc),
    collection: null,
    thresholds: { minExcerptSimilarity, duplicateSimilarity },
    duplicateEmbedder: embedder.name,
    budget: { maxCalls: budget.maxCalls, malformedRetries },
    counts: {
      requested: input.count,
      kept: positives.length,
      calls: tally.calls,
      cachedReplies: tally.cachedReplies,
      malformedReplies: tally.malformedReplies,
      passagesAvailable: spans.length,
      passagesUsed,
      dropped: tally.dropped,
    },
    drops: tally.drops,
    tokenUsage: tally.usage,
    costUsd: costOf(spec, tally.usage),
    createdAt: nowTimestamp(),
    leak,
    negatives: { requested: budget.negatives, kept: controls.questions.length, prompt: budget.negatives > 0 ? NEGATIVE_PROMPT_TEMPLATE : null },
    multiHop: { requested: budget.multiHop, kept: spanningKept.length, prompt: budget.multiHop > 0 ? MULTI_HOP_PROMPT_TEMPLATE : null },
  };
  return { metadata, questions };
}
