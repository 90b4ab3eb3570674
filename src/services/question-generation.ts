import { DEFAULTS } from "../config/defaults.js";
import { addUsage, ZERO_USAGE } from "../domain/metrics.js";
import { nowTimestamp } from "../domain/ids.js";
import type { RunOptions, StoredDocument, TokenUsage } from "../domain/types.js";
import { cosine } from "../domain/vectors.js";
import { BenchmarkError, throwIfCancelled, ValidationError } from "../errors.js";
import { TEMPLATE_NOTICE, templateQuestions } from "../evaluators/template-questions.js";
import { costOf } from "../generators/pricing.js";
import { buildQuestionPrompt, parseQuestionReply, QUESTION_PROMPT_TEMPLATE, type GeneratedQuestionReply } from "../generators/question-prompt.js";
import { matchExcerpt } from "../text/excerpt-match.js";
import type { Span } from "../text/spans.js";
import type { ServiceContext } from "./context.js";
import { findOrUploadDocument, requireDocument, type UploadInput } from "./documents.js";

export interface GenerateQuestionsInput extends RunOptions {
  /** An existing document id, or a document file to upload (reused if the same bytes were uploaded before). */
  document: { id: string } | UploadInput;
  count: number;
  /** `openai:<model>` for LLM questions, `template` for the offline generator; default: the configured generator. */
  generator?: string;
  /** Chat calls the LLM mode may make in all (default: count × `questionCallsPerQuestion`). */
  maxCalls?: number;
  minExcerptSimilarity?: number;
  duplicateSimilarity?: number;
}

/** One item of a questions file, in the shape `bench` reads (references carry their offsets). */
export interface GeneratedQuestion {
  question: string;
  expectedAnswer: string | null;
  references: Array<Span & { text: string }>;
}

export type DropReason = "poor_excerpt" | "duplicate" | "malformed";

export interface QuestionGenerationMetadata {
  /** `llm` or `template`: template questions are a smoke test, said plainly in `notice`. */
  kind: "llm" | "template";
  notice: string | null;
  generator: string;
  model: string | null;
  prompt: string | null;
  document: { id: string; filename: string; title: string };
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

function checkInput(input: GenerateQuestionsInput): void {
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > DEFAULTS.maxGeneratedQuestions) {
    throw new ValidationError(`count must be a whole number from 1 to ${DEFAULTS.maxGeneratedQuestions}, got ${input.count}`);
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
 * Writes a questions file for a document (README "Generated questions"). With a chat model:
 * passages sampled over the whole document, one question per reply, every excerpt located in
 * the extracted text (exact, then white-space and case tolerant, then bounded fuzzy), questions
 * with a poorly located excerpt or too similar to a kept one dropped, until `count` survive or
 * the call budget is spent. Without one: template questions from headings and key sentences.
 */
export async function generateQuestions(ctx: ServiceContext, input: GenerateQuestionsInput): Promise<GeneratedQuestionsFile> {
  checkInput(input);
  const doc = requireDocument(ctx, await findOrUploadDocument(ctx, input.document));
  const spec = input.generator ?? ctx.config.generator;
  if (spec === "template" || spec === "extractive") return generateTemplateQuestions(doc, input.count);
  if (!spec.startsWith("openai:")) throw new ValidationError(`question generator must be template or openai:<model>, got "${spec}"`);
  return generateLlmQuestions(ctx, doc, spec, input);
}

function generateTemplateQuestions(doc: StoredDocument, count: number): GeneratedQuestionsFile {
  const questions = templateQuestions(doc.text, doc.blocks, count).map((q) => ({
    question: q.question,
    expectedAnswer: q.expectedAnswer,
    references: [q.reference],
  }));
  if (questions.length === 0) throw new BenchmarkError(`${doc.filename}: no section has a sentence to build a template question from`);
  return {
    metadata: {
      kind: "template",
      notice: TEMPLATE_NOTICE,
      generator: "template",
      model: null,
      prompt: null,
      document: documentInfo(doc),
      thresholds: null,
      duplicateEmbedder: null,
      budget: null,
      counts: {
        requested: count,
        kept: questions.length,
        calls: 0,
        cachedReplies: 0,
        malformedReplies: 0,
        passagesAvailable: 0,
        passagesUsed: 0,
        dropped: { poor_excerpt: 0, duplicate: 0, malformed: 0 },
      },
      drops: [],
      tokenUsage: ZERO_USAGE,
      costUsd: 0,
      createdAt: nowTimestamp(),
    },
    questions,
  };
}

/** Locates every excerpt of a reply; the reason it cannot be used, or the located references. */
function locateReferences(
  text: string,
  reply: GeneratedQuestionReply,
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

async function generateLlmQuestions(ctx: ServiceContext, doc: StoredDocument, spec: string, input: GenerateQuestionsInput): Promise<GeneratedQuestionsFile> {
  const complete = await ctx.completer(spec);
  const embedder = await ctx.embedder();
  const minExcerptSimilarity = input.minExcerptSimilarity ?? DEFAULTS.minExcerptSimilarity;
  const duplicateSimilarity = input.duplicateSimilarity ?? DEFAULTS.duplicateQuestionSimilarity;
  const maxCalls = input.maxCalls ?? input.count * DEFAULTS.questionCallsPerQuestion;
  const malformedRetries = DEFAULTS.malformedReplyRetries;
  const spans = passages(doc);
  const order = spreadOrder(spans.length);

  const kept: Array<{ question: GeneratedQuestion; vector: Float32Array }> = [];
  const drops: QuestionGenerationMetadata["drops"] = [];
  const dropped: Record<DropReason, number> = { poor_excerpt: 0, duplicate: 0, malformed: 0 };
  let calls = 0;
  let cachedReplies = 0;
  let malformedReplies = 0;
  let passagesUsed = 0;
  let usage = ZERO_USAGE;
  const drop = (reason: DropReason, question: string | null, detail: string) => {
    dropped[reason]++;
    drops.push({ reason, question, detail });
  };

  // Passages in spread order, round after round (each round asks every passage for a question
  // it has not produced yet), until enough questions survive or the call budget is spent.
  const askedOf = new Map<number, string[]>();
  for (let k = 0; order.length > 0 && kept.length < input.count && calls < maxCalls; k++) {
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
    for (let attempt = 0; attempt <= malformedRetries && calls < maxCalls && !reply; attempt++) {
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
    const [vector] = await embedder.embed([reply.question], input.signal);
    const nearest = kept.reduce(
      (best, k) => {
        const similarity = cosine(vector!, k.vector);
        return similarity > best.similarity ? { similarity, question: k.question.question } : best;
      },
      { similarity: -1, question: "" },
    );
    if (nearest.similarity >= duplicateSimilarity) {
      drop("duplicate", reply.question, `similarity ${nearest.similarity.toFixed(3)} >= ${duplicateSimilarity} with "${nearest.question}"`);
      continue;
    }
    kept.push({ question: { question: reply.question, expectedAnswer: reply.answer, references: located.references }, vector: vector! });
  }

  const questions = kept.map((k) => k.question);
  const metadata: QuestionGenerationMetadata = {
    kind: "llm",
    notice: null,
    generator: spec,
    model: spec.slice("openai:".length),
    prompt: QUESTION_PROMPT_TEMPLATE,
    document: documentInfo(doc),
    thresholds: { minExcerptSimilarity, duplicateSimilarity },
    duplicateEmbedder: embedder.name,
    budget: { maxCalls, malformedRetries },
    counts: { requested: input.count, kept: questions.length, calls, cachedReplies, malformedReplies, passagesAvailable: spans.length, passagesUsed, dropped },
    drops,
    tokenUsage: usage,
    costUsd: costOf(spec, usage),
    createdAt: nowTimestamp(),
  };
  if (questions.length === 0) {
    throw new BenchmarkError(
      `no generated question survived (${calls} calls: ${dropped.malformed} malformed, ${dropped.poor_excerpt} poor excerpts, ${dropped.duplicate} duplicates)`,
    );
  }
  return { metadata, questions };
}
