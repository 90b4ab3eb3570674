// One document's questions: by template or by the configured LLM.
import type { StoredDocument } from "../../domain/types.js";
import type { ServiceContext } from "../context.js";
import type { LeakPolicy } from "./question-leak.js";
import type { GenerateQuestionsInput, GeneratedQuestionsFile } from "./generated-questions.js";
import { generateLlmQuestions } from "./llm-questions.js";
import { generateTemplateQuestions } from "./template-questions.js";

export function generateForDocument(
  ctx: ServiceContext,
  doc: StoredDocument,
  spec: string,
  input: GenerateQuestionsInput,
  policy: LeakPolicy,
): Promise<GeneratedQuestionsFile> {
  if (spec === "template" || spec === "extractive") return Promise.resolve(generateTemplateQuestions(doc, input.count, input.negatives ?? 0, policy));
  return generateLlmQuestions(ctx, doc, spec, input, policy);
}
