import { yieldToEventLoop } from "../../domain/concurrency.js";
import type { RunOptions, StoredDocument } from "../../domain/types.js";
import { questionKey } from "../../text/question-key.js";
import { LEAK_QUESTION_THRESHOLD, smokeTestReason, type VocabularyLeak } from "../../domain/question-set.js";
import { profileQuestionSet, questionLeak, type QuestionsOrigin } from "../../evaluators/question-set.js";
import type { QuestionInput } from "../../evaluators/questions.js";
import { locateInDocument, type LocatableText } from "../../text/locate-excerpt.js";
import { withoutPageFurniture } from "../../strategies/page-furniture.js";
import { matchExcerpt } from "../../text/excerpt-match.js";
import { WordSequence } from "../../text/word-sequence.js";
import type { ServiceContext } from "../context.js";
import { corpusOf, type CorpusTarget } from "../corpus/collections.js";

export interface QuestionsCheckInput extends CorpusTarget, RunOptions {
  questions: QuestionInput[];
  /** The generator the file records, if any: template questions make the set a smoke test. */
  origin: QuestionsOrigin | null;
}

/** What is wrong with one item, with the closest passage of the documents to paste where a reference is not found. */
export interface QuestionProblem {
  /** 1-based, as the file lists them. */
  item: number;
  question: string;
  kind: "reference_not_found" | "reference_ambiguous" | "reference_offsets" | "duplicate" | "copies_excerpt";
  detail: string;
  closest: { document: string; text: string; similarity: number } | null;
}

export interface QuestionsCheck {
  questions: number;
  references: number;
  /** How the references were found: exact, normalised (white space, typography), words (markup or punctuation between the words). */
  located: Record<"exact" | "normalised" | "words", number>;
  /** Problems that fail the check: references not found, duplicate questions. */
  problems: QuestionProblem[];
  /** Questions that copy their excerpt's wording (at least the leak threshold of their content words). */
  copying: QuestionProblem[];
  leak: VocabularyLeak;
  /** Why a benchmark on this set would be a smoke test (template questions, or copied wording in most questions); null when it would not. */
  smokeTest: string | null;
}

/** The closest passage of any document to an excerpt that is not there: what to paste instead. */
function closestPassage(documents: StoredDocument[], excerpt: string): QuestionProblem["closest"] {
  let best: QuestionProblem["closest"] = null;
  for (const d of documents) {
    const match = matchExcerpt(d.text, excerpt);
    if (match && (!best || match.similarity > best.similarity))
      best = { document: d.filename, text: d.text.slice(match.start, match.end), similarity: match.similarity };
  }
  return best;
}

/**
 * Checks a questions file against the documents it is for, before a run (docs/examples.md "Checking a
 * questions file"): every reference located as `bench` locates it, duplicate questions, and the
 * questions that copy their excerpt's wording, with the set's vocabulary leak.
 */
export async function checkQuestions(ctx: ServiceContext, input: QuestionsCheckInput): Promise<QuestionsCheck> {
  // As bench reads references: in the text as chunking reads it, page furniture blanked (a passage
  // copied across a page break has no running header in its middle), then in the stored text.
  const { documents: stored } = await corpusOf(ctx, input, input);
  const documents = stored.map((d): StoredDocument & LocatableText => {
    const read = withoutPageFurniture(d);
    return read === d ? d : { ...d, text: read.text, textWithFurniture: d.text };
  });
  const located = { exact: 0, normalised: 0, words: 0 };
  const problems: QuestionProblem[] = [];
  const copying: QuestionProblem[] = [];
  const wordIndexes = new Map<StoredDocument, WordSequence>();
  const seen = new Map<string, number>();
  for (const [index, q] of input.questions.entries()) {
    // A reference not found is looked for approximately over every document: the event loop runs
    // between two questions, so a server checking a long set still answers, and a caller who left stops it.
    await yieldToEventLoop();
    input.signal?.throwIfAborted();
    const item = index + 1;
    const key = questionKey(q.question);
    const first = seen.get(key);
    if (first !== undefined) problems.push({ item, question: q.question, kind: "duplicate", detail: `the same question as item ${first}`, closest: null });
    else seen.set(key, item);
    for (const ref of q.references) {
      const candidates = ref.document ? documents.filter((d) => d.filename === ref.document || d.id === ref.document) : documents;
      const spans = candidates.map((d) =>
        locateInDocument(d, ref.text, ref.start, () => wordIndexes.get(d) ?? wordIndexes.set(d, new WordSequence(d.text)).get(d)!),
      );
      const found = spans.find((span) => span !== null);
      const holders = candidates.filter((_, i) => spans[i] !== null);
      // As bench refuses it: without a document named, the excerpt must be in one document only.
      if (!ref.document && holders.length > 1) {
        const names = holders.map((d) => d.filename).slice(0, 5);
        const detail = `the excerpt is in ${holders.length} documents (${names.join(", ")}): name its "document": "${ref.text.slice(0, 80)}"`;
        problems.push({ item, question: q.question, kind: "reference_ambiguous", detail, closest: null });
      } else if (found) {
        located[found.method]++;
        // Bench moves such a reference to where its excerpt is; the file is still wrong and says so here.
        if (ref.start !== undefined && ref.end !== undefined && (found.start !== ref.start || found.end !== ref.end)) {
          const detail = `start ${ref.start} and end ${ref.end} do not hold the excerpt, which is at ${found.start}-${found.end}: "${ref.text.slice(0, 80)}"`;
          problems.push({ item, question: q.question, kind: "reference_offsets", detail, closest: null });
        }
      } else {
        const closest = closestPassage(candidates.length > 0 ? candidates : documents, ref.text);
        const where = ref.document && candidates.length === 0 ? ` (no document "${ref.document}" here)` : "";
        problems.push({ item, question: q.question, kind: "reference_not_found", detail: `excerpt not found${where}: "${ref.text.slice(0, 80)}"`, closest });
      }
    }
    const leak = questionLeak(
      q.question,
      q.references.map((r) => r.text),
    );
    if (leak !== null && leak >= LEAK_QUESTION_THRESHOLD) {
      copying.push({
        item,
        question: q.question,
        kind: "copies_excerpt",
        detail: `${(100 * leak).toFixed(0)} % of its content words are in its excerpt`,
        closest: null,
      });
    }
  }
  const profile = profileQuestionSet(input.questions, input.origin);
  return {
    questions: input.questions.length,
    references: input.questions.reduce((n, q) => n + q.references.length, 0),
    located,
    problems,
    copying,
    leak: profile.leak,
    smokeTest: smokeTestReason(profile),
  };
}
