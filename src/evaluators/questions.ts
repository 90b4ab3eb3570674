import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { parse as parseYaml } from "yaml";
import { ValidationError } from "../errors.js";
import type { Span } from "../text/spans.js";
import { WordSequence } from "../text/word-sequence.js";
import { holdsAt, locateInDocument, type LocatableText } from "../text/locate-excerpt.js";

/** A reference excerpt as written in a questions file; offsets and the document are optional. */
export interface ReferenceInput {
  /** In a collection: the file name (or id) of the document the excerpt is from. */
  document?: string;
  text: string;
  start?: number;
  end?: number;
}

export interface QuestionInput {
  question: string;
  expectedAnswer: string | null;
  references: ReferenceInput[];
  /** Which part of an evaluation set the question is in (`dev`, `heldout`), so that tuning can keep to one part. */
  split?: string;
  /** False for a negative control: a question the document cannot answer (no references, no expected answer). */
  answerable?: boolean;
}

/** A reference located in a document's extracted text. */
export interface LocatedReference extends Span {
  text: string;
  documentId: string;
  /** How it was found (see {@link locateExcerpt}); counted in the experiment's details. */
  located: ReferenceLocation;
}

/** A document questions are resolved against: one of a collection, or the only one. */
export interface CorpusDocument extends LocatableText {
  id: string;
  filename: string;
}

export interface Question {
  question: string;
  expectedAnswer: string | null;
  references: LocatedReference[];
  /** False for a negative control (see {@link QuestionInput}); absent means answerable. */
  answerable?: boolean;
}

/** What the judge compares an answer with: the expected answer, else the references' text (null without either). */
export function judgeTarget(q: Question): string | null {
  return q.expectedAnswer ?? (q.references.length > 0 ? q.references.map((r) => r.text).join(" ") : null);
}

function describeItem(index: number, item: unknown): string {
  const q = item && typeof item === "object" && typeof (item as { question?: unknown }).question === "string" ? (item as { question: string }).question : null;
  return `item ${index + 1}${q ? ` ("${q.length > 60 ? q.slice(0, 57) + "..." : q}")` : ""}`;
}

/**
 * Validates the items of a questions file: each is `{question, expected_answer?, references?,
 * split?, answerable?}`, a reference being a string or `{text, start?, end?}`; an item with
 * `answerable: false` has neither references nor an expected answer. Errors name the file, item
 * and field.
 */
export function validateQuestions(source: string, items: unknown): QuestionInput[] {
  const list = items && typeof items === "object" && !Array.isArray(items) && "questions" in items ? (items as { questions: unknown }).questions : items;
  if (!Array.isArray(list)) throw new ValidationError(`${source}: expected a list of questions (or {questions: [...]})`);
  if (list.length === 0) throw new ValidationError(`${source}: the file has no questions`);
  return list.map((item, index) => {
    const where = `${source}: ${describeItem(index, item)}`;
    if (!item || typeof item !== "object" || Array.isArray(item)) throw new ValidationError(`${where}: must be an object with a "question"`);
    const record = item as Record<string, unknown>;
    // `leak` and `flag` are what `questions generate` records about a question's copied wording: read as information, not used.
    const fields = ["question", "expected_answer", "references", "split", "answerable", "leak", "flag"];
    const unknown = Object.keys(record).filter((k) => !fields.includes(k));
    if (unknown.length > 0) throw new ValidationError(`${where}: unknown field "${unknown[0]}" (fields: ${fields.join(", ")})`);
    if (record.answerable !== undefined && typeof record.answerable !== "boolean") throw new ValidationError(`${where}: "answerable" must be true or false`);
    if (record.answerable === false && ((Array.isArray(record.references) && record.references.length > 0) || typeof record.expected_answer === "string")) {
      throw new ValidationError(`${where}: an unanswerable question ("answerable": false) has no references and no expected answer`);
    }
    if (record.leak !== undefined && record.leak !== null && !(typeof record.leak === "number" && record.leak >= 0 && record.leak <= 1)) {
      throw new ValidationError(`${where}: "leak" must be a number from 0 to 1 (or null)`);
    }
    if (record.flag !== undefined && typeof record.flag !== "string") throw new ValidationError(`${where}: "flag" must be a string`);
    if (record.split !== undefined && (typeof record.split !== "string" || !record.split.trim())) {
      throw new ValidationError(`${where}: "split" must be a non-empty string, such as "dev" or "heldout"`);
    }
    if (typeof record.question !== "string" || !record.question.trim()) throw new ValidationError(`${where}: "question" must be a non-empty string`);
    if (record.expected_answer !== undefined && record.expected_answer !== null && typeof record.expected_answer !== "string") {
      throw new ValidationError(`${where}: "expected_answer" must be a string`);
    }
    const refs = record.references ?? [];
    if (!Array.isArray(refs)) throw new ValidationError(`${where}: "references" must be a list`);
    const references = refs.map((ref, r): ReferenceInput => {
      const field = `${where}: references[${r}]`;
      if (typeof ref === "string") return { text: ref };
      if (!ref || typeof ref !== "object" || typeof (ref as { text?: unknown }).text !== "string" || !(ref as { text: string }).text.trim()) {
        throw new ValidationError(`${field}: must be a string or {document?, text, start?, end?} with a non-empty text`);
      }
      const unknownKey = Object.keys(ref).find((k) => !["document", "text", "start", "end"].includes(k));
      if (unknownKey) throw new ValidationError(`${field}: unknown field "${unknownKey}" (fields: document, text, start, end)`);
      const { document, text, start, end } = ref as { document?: unknown; text: string; start?: unknown; end?: unknown };
      if (document !== undefined && (typeof document !== "string" || !document.trim())) {
        throw new ValidationError(`${field}: "document" must be a document's file name or id`);
      }
      if ((start === undefined) !== (end === undefined)) throw new ValidationError(`${field}: give both start and end, or neither`);
      if (start !== undefined && (!Number.isInteger(start) || !Number.isInteger(end) || (start as number) < 0 || (end as number) <= (start as number))) {
        throw new ValidationError(`${field}: start and end must be whole numbers with 0 <= start < end`);
      }
      return {
        ...(document !== undefined ? { document: (document as string).trim() } : {}),
        text,
        start: start as number | undefined,
        end: end as number | undefined,
      };
    });
    const expected = typeof record.expected_answer === "string" && record.expected_answer.trim() ? record.expected_answer.trim() : null;
    const split = typeof record.split === "string" ? { split: record.split.trim() } : {};
    const answerable = record.answerable === false ? { answerable: false } : {};
    return { question: record.question.trim(), expectedAnswer: expected, references, ...split, ...answerable };
  });
}

/** Reads a JSON, JSONL or YAML questions file and validates it. */
export async function loadQuestionsFile(path: string): Promise<QuestionInput[]> {
  const source = basename(path);
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new ValidationError(`${source}: cannot read the questions file (${error.code ?? error.message})`);
  });
  return validateQuestions(source, parseQuestionsText(source, extname(path).toLowerCase(), text));
}

export function parseQuestionsText(source: string, extension: string, text: string): unknown {
  try {
    if (extension === ".jsonl") {
      return text
        .split("\n")
        .map((line, i) => [line.trim(), i] as const)
        .filter(([line]) => line)
        .map(([line, i]) => {
          try {
            return JSON.parse(line);
          } catch (error) {
            throw new ValidationError(`${source}: line ${i + 1}: ${(error as Error).message}`);
          }
        });
    }
    if (extension === ".yaml" || extension === ".yml") return parseYaml(text);
    if (extension === ".json") return JSON.parse(text);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw new ValidationError(`${source}: not valid ${extension.slice(1).toUpperCase()} (${(error as Error).message})`);
  }
  throw new ValidationError(`${source}: questions files are .json, .jsonl, .yaml or .yml`);
}

/**
 * How a reference was found: as written (`exact`), up to white space and typographic variants
 * (`normalised`: quotes, apostrophes, dashes, non-breaking spaces, ligatures), as the same
 * words in the same order whatever markup, punctuation, quotes or case lie between them
 * (`words`), at its given offsets (`offsets`), or, the offsets pointing elsewhere, at the
 * occurrence nearest them (`relocated`).
 */
export type ReferenceLocation = "exact" | "normalised" | "words" | "offsets" | "relocated";

/** The document a reference names: by id, file name, or file name without its folder. */
function namedDocument(documents: CorpusDocument[], name: string, field: string): CorpusDocument {
  const found =
    documents.find((d) => d.id === name) ?? documents.find((d) => d.filename === name) ?? documents.find((d) => d.filename === name.split(/[\\/]/).pop());
  if (!found) {
    const names = documents.map((d) => d.filename);
    throw new ValidationError(`${field}: no document "${name}" here (documents: ${names.slice(0, 10).join(", ")}${names.length > 10 ? ", …" : ""})`);
  }
  return found;
}

/**
 * Locates every reference in its document's text; a reference that is not there is an error
 * naming it. `corpus` is the documents searched: a bare text is one document (the questions of
 * a single-document benchmark need not name it). In a collection, a reference without a
 * `document` must be found in exactly one document.
 */
export function resolveQuestions(source: string, items: QuestionInput[], corpus: string | CorpusDocument[]): Question[] {
  const documents = typeof corpus === "string" ? [{ id: "", filename: "", text: corpus }] : corpus;
  // Each document's word index is built once, for every reference that needs it.
  const wordIndexes = new Map<CorpusDocument, WordSequence>();
  const wordsOf = (d: CorpusDocument) => () => wordIndexes.get(d) ?? wordIndexes.set(d, new WordSequence(d.text)).get(d)!;
  const locate = (d: CorpusDocument, excerpt: string, near?: number) => locateInDocument(d, excerpt, near, wordsOf(d));
  return items.map((item, index) => ({
    question: item.question,
    expectedAnswer: item.expectedAnswer,
    ...(item.answerable === false ? { answerable: false } : {}),
    references: item.references.map((ref, r): LocatedReference => {
      const field = `${source}: ${describeItem(index, item)}: references[${r}]`;
      const candidates = ref.document !== undefined ? [namedDocument(documents, ref.document, field)] : documents;
      if (ref.start !== undefined && ref.end !== undefined) {
        if (candidates.length > 1) throw new ValidationError(`${field}: offsets need the document they point into ("document": file name)`);
        const document = candidates[0]!;
        if (holdsAt(document, ref.start, ref.end, ref.text)) {
          return { text: ref.text, start: ref.start, end: ref.end, documentId: document.id, located: "offsets" };
        }
        // Offsets into the source file (Markdown with its markup, say) differ from the extracted
        // text's: the excerpt is found by its text instead, the occurrence nearest the offsets.
        const found = locate(document, ref.text, ref.start);
        if (!found) throw new ValidationError(`${field}: the text at ${ref.start}-${ref.end} does not match the excerpt, which is not in the document either`);
        // The document's own text: what the answer is compared with when there is no expected answer.
        return { text: document.text.slice(found.start, found.end), start: found.start, end: found.end, documentId: document.id, located: "relocated" };
      }
      const located = candidates.flatMap((d) => {
        const span = locate(d, ref.text);
        return span ? [{ document: d, span }] : [];
      });
      if (located.length === 0) {
        const where = candidates.length === 1 ? "the document" : `any of the ${candidates.length} documents`;
        throw new ValidationError(`${field}: excerpt not found in ${where}: "${ref.text.slice(0, 80)}"`);
      }
      // An excerpt found as written somewhere wins over the same words found elsewhere.
      const best = located.some((l) => l.span.method !== "words") ? located.filter((l) => l.span.method !== "words") : located;
      if (best.length > 1) {
        const names = best.map((f) => f.document.filename).slice(0, 5);
        throw new ValidationError(`${field}: the excerpt is in ${best.length} documents (${names.join(", ")}): name its "document"`);
      }
      const { document, span } = best[0]!;
      // Found by its words, the reference is the document's own text (markup and all stripped).
      const text = span.method === "words" ? document.text.slice(span.start, span.end) : ref.text;
      return { text, start: span.start, end: span.end, documentId: document.id, located: span.method };
    }),
  }));
}
