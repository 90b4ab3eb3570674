// Questions a chat model writes passage by passage, each reference located in the document's text,
// with the questions it dropped counted by reason.
import { DEFAULTS } from "../../config/defaults.js";
import { addUsage, ZERO_USAGE } from "../../domain/metrics.js";
import { nowTimestamp } from "../../domain/ids.js";
import type { StoredDocument } from "../../domain/types.js";
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
import type { CallTally } from "./ask-model.js";
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
  const negatives = input.negatives ?? 0;
  const multiHop = input.multiHop ?? 0;
  const wanted = input.count + negatives + multiHop;
  const maxCalls = input.maxCalls ?? wanted * DEFAULTS.questionCallsPerQuestion;
  // The multi-hop questions' and negative controls' shares of the budget are kept for them.
  const positiveCalls = Math.max(1, Math.round((maxCalls * input.count) / wanted));
  const multiHopCalls = Math.round((maxCalls * multiHop) / wanted);
  const malformedRetries = DEFAULTS.malformedReplyRetries;
  const spans = passages(doc);
  const order = spreadOrder(spans.length);

  const kept: Array<{ question: GeneratedQuestion; vector: Float32Array }> = [];
  const drops: QuestionGenerationMetadata["drops"] = [];
  const dropped: Record<DropReason, number> = { poor_excerpt: 0, duplicate: 0, malformed: 0, copies_excerpt: 0 };
  const paraphrases: ParaphraseAttempt[] = [];
  let calls = 0;
  let cachedReplies = 0;
  let malformedReplies = 0;
  let passagesUsed = 0;
  let usage = ZERO_USAGE;
  const drop = (reason: DropReason, question: string | null, detail: string) => {
    dropped[reason]++;
    drops.push({ reason, question, detail });
  };
  // The leak screen (question-leak.ts): the question's final wording, or null when it is dropped; a rewording call only while calls < `callsUpTo`.
  const screen = async (q: Pick<GeneratedQuestion, "question" | "expectedAnswer" | "references">, callsUpTo: number): Promise<string | null> => {
    const excerpts = q.references.map((r) => r.text);
    const available = calls < callsUpTo ? complete : null;
    const screened = await screenLlmQuestion({ question: q.question, answer: q.expectedAnswer, excerpts, policy, complete: available, signal: input.signal });
    if (screened.completion) {
      calls++;
      if (screened.completion.cached) cachedReplies++;
      if (screened.paraphrase?.rewrite === null) malformedReplies++;
      usage = addUsage(usage, screened.completion.usage);
    }
    if (screened.paraphrase) paraphrases.push(screened.paraphrase);
    if (screened.drop) drop("copies_excerpt", q.question, screened.drop);
    return screened.drop ? null : screened.question;
  };

  // Passages in spread order, round after round (each round asks every passage for a question
  // it has not produced yet), until enough questions survive or the call budget is spent.
  const askedOf = new Map<number, string[]>();
  for (let k = 0; order.length > 0 && kept.length < input.count && calls < positiveCalls; k++) {
    throwIfCancelled(input.signal);
    const index = order[k % order.length]!;
    if (!askedOf.has(index)) {
      askedOf.set(index, []);
      passagesUsed++;
    }
    const asked = askedOf.get(index)!;
    const passage = spans[index]!;
    const prompt = buildQuestionPrompt(doc.title, doc.text.slice(passage.start, passage.end), asked);
    let reply: GeneratedQuestionReply | null = null;
    let malformedHere = 0;
    // A malformed reply is not cached (accept), so asking again really asks the model again.
    for (let attempt = 0; attempt <= malformedRetries && calls < positiveCalls && !reply; attempt++) {
      const completion = await complete(prompt, input.signal, (text) => parseQuestionReply(text) !== null);
      calls++;
      if (completion.cached) cachedReplies++;
      usage = addUsage(usage, completion.usage);
      reply = parseQuestionReply(completion.text);
      if (!reply) malformedHere++;
    }
    malformedReplies += malformedHere;
    input.onProgress?.({
      stage: "generating",
      message: `${kept.length} of ${input.count} questions kept after ${calls} calls`,
      done: kept.length,
      total: input.count,
    });
    if (!reply) {
      drop("malformed", null, `passage ${passage.start}-${passage.end}: no usable reply after ${malformedHere} malformed`);
      continue;
    }
    asked.push(reply.question);
    const located = locateReferences(doc.text, reply, minExcerptSimilarity);
    if ("problem" in located) {
      drop("poor_excerpt", reply.question, located.problem);
      continue;
    }
    // A question copying its excerpt is reworded (one more call, within the budget) before the duplicate check sees its final wording.
    const question = await screen({ question: reply.question, expectedAnswer: reply.answer, references: located.references }, positiveCalls);
    if (question === null) continue;
    const [vector] = await embedder.embed([question], input.signal);
    const nearest = kept.reduce(
      (best, k) => {
        const similarity = cosine(vector!, k.vector);
        return similarity > best.similarity ? { similarity, question: k.question.question } : best;
      },
      { similarity: -1, question: "" },
    );
    if (nearest.similarity >= duplicateSimilarity) {
      drop("duplicate", question, `similarity ${nearest.similarity.toFixed(3)} >= ${duplicateSimilarity} with "${nearest.question}"`);
      continue;
    }
    kept.push({ question: { question, expectedAnswer: reply.answer, references: located.references }, vector: vector! });
  }

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
  const spanning = await generateMultiHopQuestions({ ...rest, count: multiHop, maxCalls: Math.min(multiHopCalls, maxCalls - calls), locate });
  const tallyOf = (part: CallTally & { drops: Array<{ reason: DropReason; question: string; detail: string }> }) => {
    calls += part.calls;
    cachedReplies += part.cachedReplies;
    malformedReplies += part.malformedReplies;
    usage = addUsage(usage, part.usage);
    for (const d of part.drops) drop(d.reason, d.question, d.detail);
  };
  tallyOf(spanning);
  // Multi-hop questions go through the same leak screen, their rewordings within the multi-hop share of the budget.
  const spanningKept: GeneratedQuestion[] = [];
  for (const q of spanning.questions) {
    const question = await screen(q, positiveCalls + multiHopCalls);
    if (question !== null) spanningKept.push({ ...q, question });
  }
  // Negative controls have no excerpt, so no leak to screen.
  const controls = await generateLlmNegatives({ ...rest, count: negatives, maxCalls: maxCalls - calls });
  tallyOf(controls);
  const positives = [...kept.map((k) => k.question), ...spanningKept];
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
    budget: { maxCalls, malformedRetries },
    counts: { requested: input.count, kept: positives.length, calls, cachedReplies, malformedReplies, passagesAvailable: spans.length, passagesUsed, dropped },
    drops,
    tokenUsage: usage,
    costUsd: costOf(spec, usage),
    createdAt: nowTimestamp(),
    leak,
    negatives: { requested: negatives, kept: controls.questions.length, prompt: negatives > 0 ? NEGATIVE_PROMPT_TEMPLATE : null },
    multiHop: { requested: multiHop, kept: spanningKept.length, prompt: multiHop > 0 ? MULTI_HOP_PROMPT_TEMPLATE : null },
  };
  if (positives.length === 0) {
    throw new BenchmarkError(
      `no generated question survived (${calls} calls: ${dropped.malformed} malformed, ${dropped.poor_excerpt} poor excerpts, ` +
        `${dropped.duplicate} duplicates, ${dropped.copies_excerpt} copying their excerpt)`,
    );
  }
  return { metadata, questions };
}
