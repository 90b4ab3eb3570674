import { DEFAULTS } from "../../config/defaults.js";
import { addUsage, ZERO_USAGE } from "../../domain/metrics.js";
import { nowTimestamp } from "../../domain/ids.js";
import type { CollectionRecord, RunOptions, StoredDocument, TokenUsage } from "../../domain/types.js";
import { cosine } from "../../domain/vectors.js";
import { BenchmarkError, throwIfCancelled, ValidationError } from "../../errors.js";
import { TEMPLATE_NOTICE, templateQuestions } from "../../evaluators/template-questions.js";
import { questionLeak } from "../../evaluators/question-set.js";
import { costOf } from "../../generators/pricing.js";
import { buildQuestionPrompt, parseQuestionReply, QUESTION_PROMPT_TEMPLATE, type GeneratedQuestionReply } from "../../generators/question-prompt.js";
import { matchExcerpt } from "../../text/excerpt-match.js";
import type { Span } from "../../text/spans.js";
import type { ServiceContext } from "../context.js";
import { corpusOf, type CorpusTarget } from "../corpus/collections.js";
import { PARAPHRASE_PROMPT_TEMPLATE } from "../../generators/paraphrase-prompt.js";
import {
  isLeaky,
  leakPercent,
  leakPolicy,
  screenLlmQuestion,
  withLeak,
  type GeneratedSetLeak,
  type LeakPolicy,
  type ParaphraseAttempt,
} from "./question-leak.js";
import { generateLlmNegatives, templateNegativeQuestions } from "./negative-generation.js";
import { generateMultiHopQuestions } from "./multi-hop-generation.js";
import type { CallTally } from "./ask-model.js";
import { MULTI_HOP_PROMPT_TEMPLATE } from "../../generators/multi-hop-prompt.js";
import { NEGATIVE_PROMPT_TEMPLATE } from "../../evaluators/negative-questions.js";

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

/** Passages are runs of whole blocks up to this many characters (a few hundred tokens). */
const PASSAGE_MAX_CHARS = 1500;

/** Consecutive blocks grouped into passages; a block longer than the limit is a passage of its own. */
function passages(doc: StoredDocument): Span[] {
  const out: Span[] = [];
  let current: Span | null = null;
  for (const block of doc.blocks) {
    if (current && block.end - current.start <= PASSAGE_MAX_CHARS) current.end = block.end;
    else {
      if (current) out.push(current);
      current = { start: block.start, end: block.end };
    }
  }
  if (current) out.push(current);
  return out;
}

/** Base-2 van der Corput order: any prefix of it is spread over the whole range, not its start. */
function spreadOrder(n: number): number[] {
  const order: number[] = [];
  const seen = new Set<number>();
  for (let k = 0; order.length < n; k++) {
    let v = 0;
    for (let bit = 0.5, i = k; i > 0; i >>= 1, bit /= 2) if (i & 1) v += bit;
    const index = Math.floor(v * n);
    if (!seen.has(index)) {
      seen.add(index);
      order.push(index);
    }
  }
  return order;
}

/** The input with its call budget within `maxCallsCap`: a larger max_calls is refused, a default one cut to the cap. */
function withCallBudget(input: GenerateQuestionsInput): GenerateQuestionsInput {
  const cap = input.maxCallsCap;
  if (cap === undefined) return input;
  if (input.maxCalls !== undefined && input.maxCalls > cap) {
    throw new ValidationError(`max calls is at most ${cap} on this server (its http_max_generation_calls), got ${input.maxCalls}`);
  }
  const wanted = input.count + (input.negatives ?? 0) + (input.multiHop ?? 0);
  return { ...input, maxCalls: input.maxCalls ?? Math.min(cap, wanted * DEFAULTS.questionCallsPerQuestion) };
}

function checkInput(input: GenerateQuestionsInput): void {
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > DEFAULTS.maxGeneratedQuestions) {
    throw new ValidationError(`count must be a whole number from 1 to ${DEFAULTS.maxGeneratedQuestions}, got ${input.count}`);
  }
  if (input.negatives !== undefined && (!Number.isInteger(input.negatives) || input.negatives < 0 || input.negatives > DEFAULTS.maxGeneratedQuestions)) {
    throw new ValidationError(`negatives must be a whole number from 0 to ${DEFAULTS.maxGeneratedQuestions}, got ${input.negatives}`);
  }
  if (input.multiHop !== undefined && (!Number.isInteger(input.multiHop) || input.multiHop < 0 || input.multiHop > DEFAULTS.maxGeneratedQuestions)) {
    throw new ValidationError(`multi-hop must be a whole number from 0 to ${DEFAULTS.maxGeneratedQuestions}, got ${input.multiHop}`);
  }
  if (input.maxCalls !== undefined && (!Number.isInteger(input.maxCalls) || input.maxCalls < 1))
    throw new ValidationError(`max calls must be a whole number of at least 1, got ${input.maxCalls}`);
  for (const [name, v] of [
    ["min excerpt similarity", input.minExcerptSimilarity],
    ["duplicate similarity", input.duplicateSimilarity],
  ] as const) {
    if (v !== undefined && !(v > 0 && v <= 1)) throw new ValidationError(`${name} must be a number in (0, 1], got ${v}`);
  }
}

function documentInfo(doc: StoredDocument) {
  return { id: doc.id, filename: doc.filename, title: doc.title };
}

/**
 * Writes a questions file for a document (docs/examples.md "Generated questions"). With a chat model:
 * passages sampled over the whole document, one question per reply, every excerpt located in
 * the extracted text (exact, then white-space and case tolerant, then bounded fuzzy), questions
 * with a poorly located excerpt or too similar to a kept one dropped, until `count` survive or
 * the call budget is spent. Without one: template questions from headings and key sentences.
 */
/** The checks a generation's input passes before anything runs (a background request's, before its job is queued). */
export function checkGenerateQuestionsInput(input: GenerateQuestionsInput): GenerateQuestionsInput {
  checkInput(input);
  return withCallBudget(input);
}

export async function generateQuestions(ctx: ServiceContext, asked: GenerateQuestionsInput): Promise<GeneratedQuestionsFile> {
  const input = checkGenerateQuestionsInput(asked);
  const spec = input.generator ?? ctx.config.generator;
  if (spec !== "template" && spec !== "extractive" && !spec.startsWith("openai:")) {
    throw new ValidationError(`question generator must be template or openai:<model>, got "${spec}"`);
  }
  if ((input.multiHop ?? 0) > 0 && !spec.startsWith("openai:")) {
    throw new ValidationError("multi-hop questions need an LLM (--generator openai:<model>): template questions have one reference each");
  }
  const policy = leakPolicy(input);
  const { documents, collection } = await corpusOf(ctx, input, input);
  if (!collection) return generateForDocument(ctx, documents[0]!, spec, input, policy);
  return generateForCollection(ctx, collection, documents, spec, input, policy);
}

function generateForDocument(
  ctx: ServiceContext,
  doc: StoredDocument,
  spec: string,
  input: GenerateQuestionsInput,
  policy: LeakPolicy,
): Promise<GeneratedQuestionsFile> {
  if (spec === "template" || spec === "extractive") return Promise.resolve(generateTemplateQuestions(doc, input.count, input.negatives ?? 0, policy));
  return generateLlmQuestions(ctx, doc, spec, input, policy);
}

/**
 * How many of `count` questions each document gets: in proportion to its length (largest
 * remainders), at least one each while `count` allows; with fewer questions than documents,
 * one each for the longest.
 */
export function questionQuotas(lengths: number[], count: number): number[] {
  const quotas = lengths.map(() => 0);
  const byLength = lengths.map((length, i) => ({ length, i })).sort((a, b) => b.length - a.length || a.i - b.i);
  if (count <= lengths.length) {
    for (const { i } of byLength.slice(0, count)) quotas[i] = 1;
    return quotas;
  }
  // Largest remainders over the lengths, then every document given one, taken from the largest share.
  const total = lengths.reduce((a, b) => a + b, 0) || 1;
  const shares = lengths.map((length) => (count * length) / total);
  shares.forEach((share, i) => (quotas[i] = Math.floor(share)));
  const left = count - quotas.reduce((a, b) => a + b, 0);
  const byRemainder = shares.map((share, i) => ({ r: share - Math.floor(share), i })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder.slice(0, left)) quotas[i]!++;
  for (const [i, quota] of quotas.entries()) {
    if (quota > 0) continue;
    const largest = quotas.reduce((best, q, j) => (q > quotas[best]! ? j : best), 0);
    quotas[largest]!--;
    quotas[i] = 1;
  }
  return quotas;
}

/**
 * Questions for a collection: each document's share of `count` is generated from it alone, and
 * every reference names its document. A document that yields none is recorded as skipped with
 * the reason; the call budget is shared out like the questions.
 */
async function generateForCollection(
  ctx: ServiceContext,
  collection: CollectionRecord,
  documents: StoredDocument[],
  spec: string,
  input: GenerateQuestionsInput,
  policy: LeakPolicy,
): Promise<GeneratedQuestionsFile> {
  const quotas = questionQuotas(
    documents.map((d) => d.text.length),
    input.count,
  );
  const negativeQuotas = questionQuotas(
    documents.map((d) => d.text.length),
    input.negatives ?? 0,
  );
  const multiHopQuotas = questionQuotas(
    documents.map((d) => d.text.length),
    input.multiHop ?? 0,
  );
  const files: Array<{ doc: StoredDocument; file: GeneratedQuestionsFile | null; skipped: string | null }> = [];
  for (const [i, doc] of documents.entries()) {
    throwIfCancelled(input.signal);
    if (quotas[i] === 0) {
      files.push({ doc, file: null, skipped: null });
      continue;
    }
    input.onProgress?.({ stage: "generating", message: `${doc.filename}: ${quotas[i]} question(s)`, done: i, total: documents.length });
    const share = (quotas[i]! + negativeQuotas[i]! + multiHopQuotas[i]!) / (input.count + (input.negatives ?? 0) + (input.multiHop ?? 0));
    const maxCalls = input.maxCalls === undefined ? undefined : Math.max(1, Math.round(input.maxCalls * share));
    try {
      const [negatives, multiHop] = [negativeQuotas[i]!, multiHopQuotas[i]!];
      const file = await generateForDocument(ctx, doc, spec, { ...input, count: quotas[i]!, negatives, multiHop, maxCalls }, policy);
      files.push({ doc, file, skipped: null });
    } catch (error) {
      if (!(error instanceof BenchmarkError)) throw error;
      files.push({ doc, file: null, skipped: error.message });
    }
  }
  const made = files.filter((f) => f.file !== null).map((f) => ({ doc: f.doc, file: f.file! }));
  if (made.length === 0) throw new BenchmarkError(`no document of ${collection.name} yielded a question: ${files.map((f) => f.skipped).filter(Boolean)[0]}`);
  const merged = made.flatMap(({ doc, file }) =>
    file.questions.map((q) => ({ ...q, references: q.references.map((r) => ({ document: doc.filename, ...r })) })),
  );
  const paraphrases = made.flatMap(({ file }) => file.metadata.leak.paraphrases);
  const { questions, leak } = withLeak(merged, policy, paraphrases, made[0]!.file.metadata.leak.paraphrasePrompt);
  const positives = questions.filter((q) => q.answerable !== false).length;
  const first = made[0]!.file.metadata;
  const sum = (pick: (m: QuestionGenerationMetadata) => number) => made.reduce((n, { file }) => n + pick(file.metadata), 0);
  const dropped = { poor_excerpt: 0, duplicate: 0, malformed: 0, copies_excerpt: 0 };
  for (const { file } of made) for (const reason of Object.keys(dropped) as DropReason[]) dropped[reason] += file.metadata.counts.dropped[reason];
  const tokenUsage = made.reduce((u, { file }) => addUsage(u, file.metadata.tokenUsage), ZERO_USAGE);
  return {
    metadata: {
      ...first,
      document: { id: collection.id, filename: collection.name, title: collection.name },
      collection: {
        id: collection.id,
        name: collection.name,
        documents: files.map(({ doc, file, skipped }) => ({ id: doc.id, filename: doc.filename, questions: file?.questions.length ?? 0, skipped })),
      },
      budget: first.budget && input.maxCalls !== undefined ? { ...first.budget, maxCalls: input.maxCalls } : first.budget,
      counts: {
        requested: input.count,
        kept: positives,
        calls: sum((m) => m.counts.calls),
        cachedReplies: sum((m) => m.counts.cachedReplies),
        malformedReplies: sum((m) => m.counts.malformedReplies),
        passagesAvailable: sum((m) => m.counts.passagesAvailable),
        passagesUsed: sum((m) => m.counts.passagesUsed),
        dropped,
      },
      drops: made.flatMap(({ doc, file }) => file.metadata.drops.map((d) => ({ ...d, detail: `${doc.filename}: ${d.detail}` }))),
      tokenUsage,
      costUsd: costOf(spec, tokenUsage),
      createdAt: nowTimestamp(),
      leak,
      negatives: { requested: input.negatives ?? 0, kept: questions.length - positives, prompt: first.negatives.prompt },
      multiHop: { requested: input.multiHop ?? 0, kept: sum((m) => m.multiHop.kept), prompt: first.multiHop.prompt },
    },
    questions,
  };
}

/**
 * Template questions copy their topic words from their key sentence by construction, but the
 * fixed wording and the heading are not in it, so most stay under the leak threshold. One that
 * reaches it is left out (another section takes its place) unless leaky ones are kept, flagged.
 * Negative controls have no excerpt, so no leak.
 */
function generateTemplateQuestions(doc: StoredDocument, count: number, negatives: number, policy: LeakPolicy): GeneratedQuestionsFile {
  const drops: QuestionGenerationMetadata["drops"] = [];
  const accept = (q: { question: string; reference: { text: string } }) => {
    const leak = questionLeak(q.question, [q.reference.text]);
    if (policy.keepLeaky || !isLeaky(leak, policy)) return true;
    drops.push({
      reason: "copies_excerpt",
      question: q.question,
      detail: `${leakPercent(leak)} of its content words are in its excerpt (≥ ${leakPercent(policy.maxLeak)})`,
    });
    return false;
  };
  const positives = templateQuestions(doc.text, doc.blocks, count, accept).map((q) => ({
    question: q.question,
    expectedAnswer: q.expectedAnswer,
    references: [q.reference],
  }));
  if (positives.length === 0 && drops.length > 0) {
    throw new BenchmarkError(
      `${doc.filename}: all ${drops.length} template questions copy ≥ ${leakPercent(policy.maxLeak)} of their content words from their excerpt ` +
        "(--keep-leaky keeps them, flagged; --max-leak raises the threshold)",
    );
  }
  if (positives.length === 0) throw new BenchmarkError(`${doc.filename}: no section has a sentence to build a template question from`);
  const controls = templateNegativeQuestions(doc, negatives);
  const { questions, leak } = withLeak<GeneratedQuestion>([...positives, ...controls], policy, [], null);
  return {
    metadata: {
      kind: "template",
      notice: TEMPLATE_NOTICE,
      generator: "template",
      model: null,
      prompt: null,
      document: documentInfo(doc),
      collection: null,
      thresholds: null,
      duplicateEmbedder: null,
      budget: null,
      counts: {
        requested: count,
        kept: positives.length,
        calls: 0,
        cachedReplies: 0,
        malformedReplies: 0,
        passagesAvailable: 0,
        passagesUsed: 0,
        dropped: { poor_excerpt: 0, duplicate: 0, malformed: 0, copies_excerpt: drops.length },
      },
      drops,
      tokenUsage: ZERO_USAGE,
      costUsd: 0,
      createdAt: nowTimestamp(),
      leak,
      negatives: { requested: negatives, kept: controls.length, prompt: null },
      multiHop: { requested: 0, kept: 0, prompt: null },
    },
    questions,
  };
}

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

async function generateLlmQuestions(
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
