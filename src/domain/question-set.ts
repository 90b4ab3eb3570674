/** A question set's provenance and vocabulary leak: what a verdict stands on (computed in src/evaluators/question-set.ts). */

/** Who wrote a question set: a person, a language model (`questions generate` with an LLM), or the offline template generator. */
export type QuestionProvenance = "hand-written" | "llm" | "template";

/**
 * A question's content word is "copied" when its stem is among its reference excerpts' stems; a
 * question copying at least this share of its content words reads like its excerpt reworded
 * into a question, which keyword and dense search alike find by its words.
 */
export const LEAK_QUESTION_THRESHOLD = 0.75;

/**
 * A set in which at least this share of the questions copy their excerpt (above the question
 * threshold) measures which search matches copied words, not which chunking answers questions:
 * its verdict is a smoke test.
 */
export const LEAK_SET_THRESHOLD = 0.5;

/** How much of the questions' wording is copied from their reference excerpts. */
export interface VocabularyLeak {
  /** Mean share of a question's content words found in its excerpts (0-1), over the questions with excerpts; null without any. */
  average: number | null;
  /** The per-question share from which a question counts as copying its excerpt. */
  threshold: number;
  /** Questions at or above the threshold. */
  above: number;
  /** Questions the share was measured on (those with reference excerpts and content words). */
  measured: number;
}

/** What the verdict stands on: who wrote the questions and how much they copy their answers' wording. */
export interface QuestionSetProfile {
  provenance: QuestionProvenance;
  /** The language model that wrote an `llm` set; null otherwise. */
  model: string | null;
  /**
   * Where the provenance was read: the file's generation metadata, the questions' wording (half or
   * more of the questions in the template generator's form), or nothing, when the set is taken as hand-written.
   */
  provenanceFrom: "metadata" | "wording" | "none";
  leak: VocabularyLeak;
}

/** "LLM-generated (gpt-4o-mini)", "template", "taken as hand-written (no generator recorded in the file)". */
export function provenanceWords(profile: QuestionSetProfile): string {
  if (profile.provenance === "llm") return `LLM-generated${profile.model ? ` (${profile.model})` : ""}`;
  if (profile.provenance === "template") return `template (offline generator${profile.provenanceFrom === "wording" ? ", recognised by its wording" : ""})`;
  return "taken as hand-written (no generator recorded in the file)";
}

/** "average 0.41; 3 of 20 questions copy ≥ 75 % of their content words from their excerpt". */
export function leakWords(leak: VocabularyLeak): string {
  if (leak.average === null) return "not measured (no question has a reference excerpt)";
  return (
    `average ${(100 * leak.average).toFixed(0)} % of a question's content words copied from its excerpt; ` +
    `${leak.above} of ${leak.measured} questions copy ≥ ${(100 * leak.threshold).toFixed(0)} %`
  );
}

/**
 * Why a verdict on this set is a smoke test, not a recommendation, or null when it is not:
 * template questions, or a set most of whose questions copy their excerpt's wording. Both
 * reward a search that matches copied words, whatever the chunking.
 */
export function smokeTestReason(profile: QuestionSetProfile): string | null {
  if (profile.provenance === "template") {
    return "the questions are template questions, built from the document's own sentences, so they copy the answers' words and reward keyword matching";
  }
  const { leak } = profile;
  if (leak.measured > 0 && leak.above / leak.measured >= LEAK_SET_THRESHOLD) {
    return (
      `${leak.above} of ${leak.measured} questions copy ≥ ${(100 * leak.threshold).toFixed(0)} % of their content words from their reference excerpt, ` +
      "which rewards matching copied words rather than chunking"
    );
  }
  return null;
}
