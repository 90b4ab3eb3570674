// Questions without a model (evaluators/template-questions.ts), those that copy their excerpt left out,
// and negative controls.
import { ZERO_USAGE } from "../../domain/metrics.js";
import { nowTimestamp } from "../../domain/ids.js";
import type { StoredDocument } from "../../domain/types.js";
import { BenchmarkError } from "../../errors.js";
import { TEMPLATE_NOTICE, templateQuestions } from "../../evaluators/template-questions.js";
import { questionLeak } from "../../evaluators/question-set.js";
import { isLeaky, leakPercent, withLeak, type LeakPolicy } from "./question-leak.js";
import { templateNegativeQuestions } from "./negative-generation.js";
import type { GeneratedQuestion, GeneratedQuestionsFile, QuestionGenerationMetadata } from "./generated-questions.js";
import { documentInfo } from "./question-passages.js";

/**
 * Template questions copy their topic words from their key sentence by construction, but the
 * fixed wording and the heading are not in it, so most stay under the leak threshold. One that
 * reaches it is left out (another section takes its place) unless leaky ones are kept, flagged.
 * Negative controls have no excerpt, so no leak.
 */
export function generateTemplateQuestions(doc: StoredDocument, count: number, negatives: number, policy: LeakPolicy): GeneratedQuestionsFile {
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
