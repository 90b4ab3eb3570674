import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { contentTerms } from "../text/terms.js";
import { parseQuestionsText, type QuestionInput } from "./questions.js";
import { LEAK_QUESTION_THRESHOLD, type QuestionSetProfile, type VocabularyLeak } from "../domain/question-set.js";

/** What a questions file says about its generator (the `metadata` that `questions generate` writes), if anything. */
export interface QuestionsOrigin {
  kind: "llm" | "template";
  model: string | null;
}

/** The share (0-1) of a question's distinct content words (stemmed, stopwords left out) that its excerpts contain; null when it has none to compare. */
export function questionLeak(question: string, excerpts: string[]): number | null {
  const asked = new Set(contentTerms(question));
  if (asked.size === 0 || excerpts.length === 0) return null;
  const source = new Set(excerpts.flatMap((e) => contentTerms(e)));
  let copied = 0;
  for (const term of asked) if (source.has(term)) copied++;
  return copied / asked.size;
}

/** The set's vocabulary leak: mean share copied, and how many questions copy at least `threshold` of their words. */
export function vocabularyLeak(questions: QuestionInput[], threshold = LEAK_QUESTION_THRESHOLD): VocabularyLeak {
  const shares = questions
    .map((q) =>
      questionLeak(
        q.question,
        q.references.map((r) => r.text),
      ),
    )
    .filter((s): s is number => s !== null);
  return {
    average: shares.length === 0 ? null : shares.reduce((a, b) => a + b, 0) / shares.length,
    threshold,
    above: shares.filter((s) => s >= threshold).length,
    measured: shares.length,
  };
}

// The offline generator's two question forms (src/evaluators/template-questions.ts).
const TEMPLATE_WORDING = /^What does (the section ".*"|the passage that begins ".*…") say( about .+)?\?$/;

/** The generator a parsed questions file records in its `metadata` (as `questions generate` writes it); null when it records none. */
function originOfParsed(parsed: unknown): QuestionsOrigin | null {
  const metadata = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as { metadata?: unknown }).metadata : undefined;
  if (!metadata || typeof metadata !== "object") return null;
  const { kind, model } = metadata as { kind?: unknown; model?: unknown };
  if (kind !== "llm" && kind !== "template") return null;
  return { kind, model: typeof model === "string" && model ? model : null };
}

/** The generator a questions file records, read from the file (null when it records none or cannot be parsed: the questions' own loader reports that). */
export async function loadQuestionsOrigin(path: string): Promise<QuestionsOrigin | null> {
  try {
    return originOfParsed(parseQuestionsText(basename(path), extname(path).toLowerCase(), await readFile(path, "utf8")));
  } catch {
    return null;
  }
}

/**
 * Who wrote the set (from the file's metadata, else the template wording of half or more of its
 * questions, else taken as hand-written) and its vocabulary leak.
 */
export function profileQuestionSet(questions: QuestionInput[], origin: QuestionsOrigin | null | undefined): QuestionSetProfile {
  const leak = vocabularyLeak(questions);
  if (origin) return { provenance: origin.kind, model: origin.kind === "llm" ? origin.model : null, provenanceFrom: "metadata", leak };
  // Half or more: a template set with a question or two added by hand still rewards copied wording.
  const templateShaped = questions.filter((q) => TEMPLATE_WORDING.test(q.question)).length;
  if (questions.length > 0 && templateShaped >= questions.length / 2) {
    return { provenance: "template", model: null, provenanceFrom: "wording", leak };
  }
  return { provenance: "hand-written", model: null, provenanceFrom: "none", leak };
}
