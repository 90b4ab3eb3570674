// `questions generate`: the input checked before any work, then a document's or a collection's questions.
import { DEFAULTS } from "../../config/defaults.js";
import { ValidationError } from "../../errors.js";
import type { ServiceContext } from "../context.js";
import { corpusOf } from "../corpus/collections.js";
import { withoutPageFurniture } from "../../strategies/page-furniture.js";
import { leakPolicy } from "./question-leak.js";
import { generateForCollection } from "./collection-questions.js";
import { generateForDocument } from "./document-questions.js";
import type { GenerateQuestionsInput, GeneratedQuestionsFile } from "./generated-questions.js";

/** The input with its call budget within `maxCallsCap`: a larger max_calls is refused, a default one cut to the cap. */
export function withCallBudget(input: GenerateQuestionsInput): GenerateQuestionsInput {
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
  const { documents: stored, collection } = await corpusOf(ctx, input, input);
  // Questions are asked of the text as chunking reads it: a running header or a page number is
  // never a passage to ask about nor an expected answer (bench would not find such a reference in
  // any chunk). The offsets are the stored text's.
  const documents = stored.map((d) => withoutPageFurniture(d));
  if (!collection) return generateForDocument(ctx, documents[0]!, spec, input, policy);
  return generateForCollection(ctx, collection, documents, spec, input, policy);
}
