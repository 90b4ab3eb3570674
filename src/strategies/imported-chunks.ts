import { createHash } from "node:crypto";
import { ValidationError } from "../errors.js";
import type { Span } from "../text/spans.js";
import { TokenIndex } from "../text/token-index.js";
import { spansToDrafts } from "./packing.js";
import { preview, STRATEGY_NAME } from "./strategy-module.js";
import { holdsAt, locateInDocument, type ExcerptLocation, type LocatableText } from "../text/locate-excerpt.js";
import { matchExcerpt } from "../text/excerpt-match.js";
import { WordSequence } from "../text/word-sequence.js";
import type { ChunkDraft, ChunkingStrategy, StrategyDefinition } from "./strategy.js";

/**
 * Chunks a user's own pipeline already produced (`bench --chunks name=FILE.jsonl`, docs/strategies.md "Your
 * own chunks"), benchmarked as a strategy named `name` for one run: the same pipeline as every
 * strategy (chunk → embed → write vectors → commit), with "chunk" being "locate the given chunks".
 */

/** One imported chunk: the document it belongs to (file name or id; optional for one document), its text, and optionally its offsets. */
export interface ImportedChunk {
  document?: string;
  text: string;
  start?: number;
  end?: number;
}

/** A named set of imported chunks, with where they came from for error messages. */
export interface ChunksImport {
  /** The strategy name the chunks are benchmarked and stored under. */
  name: string;
  /** The file (or request field) the chunks came from: errors name it. */
  source: string;
  chunks: ImportedChunk[];
  /** What each chunk is called in errors, e.g. `line 3` (file) or `item 3` (request); by default `line n`. */
  places?: string[];
  /**
   * The lines (or items) that could not be read as chunks, each `line 3: why`: they are reported
   * with the chunks that cannot be placed, in one error of `locateImportedChunks`, so that one run
   * names every bad line of the file, whatever is wrong with it.
   */
  unread?: string[];
}

/** A document of the benchmarked corpus, as imported chunks are matched against it. */
export interface ImportTarget extends LocatableText {
  id: string;
  filename: string;
}

/**
 * A hidden option recorded with imported chunks: a hash of the chunks. A re-run reuses the stored
 * chunks only when the recorded options equal the variant's (services/benchmarking/bench-indexing.ts,
 * `ensureProcessed`), so an edited file under the same name is processed again. A number (48
 * bits of SHA-256) because options are numbers everywhere they are stored.
 */
export const CHUNKS_HASH_OPTION = "chunks_hash";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function placeOf(imp: ChunksImport, index: number): string {
  return `${imp.source}, ${imp.places?.[index] ?? `line ${index + 1}`}`;
}

/** Checks one parsed chunk (`value`); `fail` makes the error naming where it is. */
function checkChunk(value: unknown, fail: (problem: string) => ValidationError): ImportedChunk {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw fail(`not an object {document, text, start?, end?}`);
  const v = value as Record<string, unknown>;
  if (typeof v.text !== "string") throw fail(`"text" is missing or not a string`);
  if (v.text.trim() === "") throw fail(`"text" is empty`);
  if (v.document !== undefined && (typeof v.document !== "string" || v.document.trim() === "")) throw fail(`"document", if given, must be a non-empty string`);
  if ((v.start === undefined) !== (v.end === undefined)) throw fail(`give both "start" and "end", or neither (${preview(v.text)})`);
  const chunk: ImportedChunk = { text: v.text, ...(v.document !== undefined ? { document: v.document as string } : {}) };
  if (v.start !== undefined) {
    const { start, end } = v;
    if (!Number.isInteger(start) || !Number.isInteger(end) || (start as number) < 0 || (start as number) >= (end as number)) {
      throw fail(`"start" and "end" must be whole numbers with 0 <= start < end, got ${JSON.stringify(start)} and ${JSON.stringify(end)}`);
    }
    chunk.start = start as number;
    chunk.end = end as number;
  }
  return chunk;
}

/**
 * Reads a JSONL file of chunks (one `{document?, text, start?, end?}` per line; blank lines are
 * skipped, other fields ignored). Every line that is not JSON or lacks a field is kept in `unread`,
 * for `locateImportedChunks` to report with the chunks it cannot place; a file without a good line
 * is one ValidationError naming every bad line (up to MAX_REPORTED_CHUNK_PROBLEMS; the rest
 * counted), or saying it holds no chunks.
 */
export function parseChunksJsonl(name: string, source: string, content: string): ChunksImport {
  const chunks: ImportedChunk[] = [];
  const places: string[] = [];
  const problems: string[] = [];
  // A byte-order mark (Windows PowerShell's `Out-File -Encoding utf8` writes one) is not part of line 1.
  content
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((line, i) => {
      if (line.trim() === "") return;
      const fail = (problem: string) => new ValidationError(`line ${i + 1}: ${problem}`);
      try {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (error) {
          throw fail(`not valid JSON (${messageOf(error)})`);
        }
        chunks.push(checkChunk(value, fail));
        places.push(`line ${i + 1}`);
      } catch (error) {
        problems.push((error as Error).message);
      }
    });
  if (chunks.length === 0) {
    throwProblems(`chunks file ${source}`, problems, "line");
    throw new ValidationError(`chunks file ${source}: no chunks (one {"document", "text", "start"?, "end"?} object per line)`);
  }
  return { name, source: `chunks file ${source}`, chunks, places, unread: problems };
}

/** Chunks given inline (an HTTP request's `chunks: {name: [...]}`), checked as a file's lines are. */
export function chunksFromList(name: string, source: string, list: unknown): ChunksImport {
  if (!Array.isArray(list)) throw new ValidationError(`${source}: must be an array of {document, text, start?, end?}`);
  if (list.length === 0) throw new ValidationError(`${source}: no chunks`);
  const problems: string[] = [];
  const chunks: ImportedChunk[] = [];
  const places: string[] = [];
  list.forEach((value, i) => {
    try {
      chunks.push(checkChunk(value, (problem) => new ValidationError(`item ${i + 1}: ${problem}`)));
      places.push(`item ${i + 1}`);
    } catch (error) {
      problems.push((error as Error).message);
    }
  });
  if (chunks.length === 0) throwProblems(source, problems, "item");
  return { name, source, chunks, places, unread: problems };
}

/** One ValidationError for every bad line or item of `source`: the first MAX_REPORTED_CHUNK_PROBLEMS, the rest counted; nothing when there is none. */
function throwProblems(source: string, problems: string[], unit: "line" | "item"): void {
  if (problems.length === 0) return;
  if (problems.length === 1) throw new ValidationError(`${source}, ${problems[0]}`);
  const shown = problems.slice(0, MAX_REPORTED_CHUNK_PROBLEMS);
  const more = problems.length - shown.length;
  throw new ValidationError(`${source}: ${problems.length} bad ${unit}s:\n  ${shown.join("\n  ")}${more > 0 ? `\n  … and ${more} more` : ""}`);
}

/**
 * `read` applied to every import: the results, or, when any failed, one error naming every
 * import's problem (each import's message on a line of its own), so one run reports every file
 * with a problem. An error that is not a ValidationError is thrown as it is.
 */
export async function eachImport<T, R>(imports: readonly T[], read: (imp: T) => R | Promise<R>): Promise<R[]> {
  const settled = await Promise.allSettled(imports.map(async (imp) => read(imp)));
  const errors = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as unknown] : []));
  if (errors.length === 0) return settled.map((s) => (s as PromiseFulfilledResult<R>).value);
  const other = errors.find((e) => !(e instanceof ValidationError));
  if (other !== undefined || errors.length === 1) throw other ?? errors[0];
  throw new ValidationError(errors.map((e) => (e as ValidationError).message).join("\n"));
}

/** The line (or item) number a place or problem names: "chunks file x, line 12: …" → 12. */
function lineNumber(place: string): number {
  return Number(/\b(?:line|item) (\d+)/.exec(place)?.[1] ?? 0);
}

/** The documents of `documents` a chunk's `document` names: by id, file name, or file name without its folder. */
function named(documents: readonly ImportTarget[], name: string): ImportTarget[] {
  const byId = documents.filter((d) => d.id === name);
  if (byId.length > 0) return byId;
  const byName = documents.filter((d) => d.filename === name);
  if (byName.length > 0) return byName;
  const base = name.split(/[\\/]/).pop();
  return documents.filter((d) => d.filename === base);
}

/** Chunks that cannot be placed are listed up to this many in one error (each with its closest passage); the rest are counted. */
export const MAX_REPORTED_CHUNK_PROBLEMS = 20;

/** How an import's chunks were placed: by their offsets, or found like references (`locateExcerpt`). */
export type ChunkLocation = ExcerptLocation | "offsets";

/** Every chunk of an import placed: the spans per document id, in file order, and how many were placed each way. */
export interface ImportPlacement {
  spans: Map<string, Span[]>;
  located: Partial<Record<ChunkLocation, number>>;
  /** Where the chunks found only as the same words are in the file ("line 12"), the first MAX_REPORTED_CHUNK_PROBLEMS of them. */
  approximate: string[];
}

/**
 * Places every chunk of an import in its document of `documents` (the benchmarked corpus), in
 * file order per document: with offsets, the text there must equal the chunk's up to white
 * space; without, the chunk is found as a reference is (`locateExcerpt`: as written, up to white
 * space and typography, or as the same words, a word hyphenated at a line end joined), the
 * first occurrence after the start of the chunk before it (else the nearest before). Every document must get a chunk. What is
 * wrong is one ValidationError listing every chunk that could not be placed (up to
 * MAX_REPORTED_CHUNK_PROBLEMS, with the closest passage of the document where the text is not there).
 */
export function locateImportedChunks(imp: ChunksImport, documents: readonly ImportTarget[]): ImportPlacement {
  const spans = new Map<string, Span[]>(documents.map((d) => [d.id, []]));
  const located: ImportPlacement["located"] = {};
  const approximate: string[] = [];
  const unread = imp.unread ?? [];
  // Every bad line, in file order; a message (a closest passage costs a search) is made only for those reported.
  const bad: Array<{ line: number; message: () => string }> = unread.map((problem) => ({
    line: lineNumber(problem),
    message: () => `${imp.source}, ${problem}`,
  }));
  // Each document's word index is built once, for every chunk that needs it.
  const wordIndexes = new Map<ImportTarget, WordSequence>();
  const wordsOf = (d: ImportTarget) => () => wordIndexes.get(d) ?? wordIndexes.set(d, new WordSequence(d.text)).get(d)!;
  imp.chunks.forEach((chunk, i) => {
    const problem = (text: () => string) => bad.push({ line: lineNumber(placeOf(imp, i)), message: () => `${placeOf(imp, i)}: ${text()}` });
    const document = documentOf(chunk, documents, problem);
    if (!document) return;
    const list = spans.get(document.id)!;
    if (chunk.start !== undefined && chunk.end !== undefined) {
      if (chunk.end > document.text.length) {
        return problem(() => `"end" ${chunk.end} is past the end of ${document.filename}'s text (${document.text.length} characters): ${preview(chunk.text)}`);
      }
      if (!holdsAt(document, chunk.start, chunk.end, chunk.text)) {
        return problem(
          () =>
            `the text of ${document.filename} at ${chunk.start}-${chunk.end} is ${preview(document.text.slice(chunk.start, chunk.end))}, ` +
            `not the chunk's ${preview(chunk.text)}`,
        );
      }
      list.push({ start: chunk.start, end: chunk.end });
      located.offsets = (located.offsets ?? 0) + 1;
      return;
    }
    // In file order: the first occurrence after the previous chunk's start (chunks may overlap), else the nearest before it.
    const previous = list.at(-1);
    const found = locateInDocument(document, chunk.text, previous && { from: previous.start + 1 }, wordsOf(document));
    if (!found) return problem(() => `the text is not in ${document.filename}: ${preview(chunk.text)}${closestPassage(document, chunk.text)}`);
    list.push({ start: found.start, end: found.end });
    located[found.method] = (located[found.method] ?? 0) + 1;
    if (found.method === "words" && approximate.length < MAX_REPORTED_CHUNK_PROBLEMS) approximate.push(imp.places?.[i] ?? `line ${i + 1}`);
  });
  if (bad.length > 0) {
    const count = bad.length;
    const problems = bad
      .sort((a, b) => a.line - b.line)
      .slice(0, MAX_REPORTED_CHUNK_PROBLEMS)
      .map((p) => p.message());
    const unreported = count - problems.length;
    const unplaced = count - unread.length;
    const unit = `${imp.places?.[0]?.startsWith("item") ? "item" : "line"}${count === 1 ? "" : "s"}`;
    const what =
      unread.length === 0
        ? `${count} chunk${count === 1 ? "" : "s"} could not be placed`
        : unplaced === 0
          ? `${count} bad ${unit}`
          : `${count} bad ${unit} (${unread.length} not read as a chunk, ${unplaced} not placed)`;
    throw new ValidationError(`${imp.source}: ${what}:\n  ${problems.join("\n  ")}` + (unreported > 0 ? `\n  … and ${unreported} more` : ""));
  }
  for (const d of documents) {
    if (spans.get(d.id)!.length === 0) {
      throw new ValidationError(
        `${imp.source}: no chunk for the document ${d.filename} (${d.id}); chunks of "${imp.name}" must cover every document benchmarked`,
      );
    }
  }
  return { spans, located, approximate };
}

/** The document of `documents` a chunk names (the only one when it names none), or null with the problem said. */
function documentOf(chunk: ImportedChunk, documents: readonly ImportTarget[], problem: (text: () => string) => void): ImportTarget | null {
  if (chunk.document === undefined) {
    if (documents.length === 1) return documents[0]!;
    problem(() => `no "document" (the benchmark searches ${documents.length} documents; name the chunk's by file name or id): ${preview(chunk.text)}`);
    return null;
  }
  const found = named(documents, chunk.document);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) problem(() => `"${chunk.document}" names ${found.length} documents of the benchmark; use the document id`);
  else {
    const names = documents.map((d) => d.filename);
    problem(() => `no document "${chunk.document}" in the benchmark (documents: ${names.slice(0, 10).join(", ")}${names.length > 10 ? ", …" : ""})`);
  }
  return null;
}

/** "; closest passage (72 % alike): "…"", what to paste instead of a chunk that is not in the document; empty when nothing is alike. */
function closestPassage(document: ImportTarget, text: string): string {
  const match = matchExcerpt(document.text, text);
  if (!match) return "";
  const passage = document.text.slice(match.start, match.end);
  return `; closest passage (${Math.round(match.similarity * 100)} % alike): ${preview(passage)}${firstDifference(text, passage)}`;
}

/**
 * Where a chunk and its closest passage first differ, white space aside: a few words of each from
 * there, since the two often read alike for longer than a preview shows ("Rhelp" where the
 * document has "R-help", an accent, a dropped line).
 */
function firstDifference(chunk: string, passage: string): string {
  const [a, b] = [chunk, passage].map((t) => t.split(/\s+/).filter(Boolean));
  let i = 0;
  while (i < a!.length && i < b!.length && a![i] === b![i]) i++;
  if (i === a!.length && i === b!.length) return "";
  const around = (words: string[]) => (i < words.length ? words.slice(Math.max(0, i - 2), i + 4).join(" ") : "(its end)");
  return `; they first differ at word ${i + 1}: the chunk has "${around(a!)}", the document "${around(b!)}"`;
}

/** The hash recorded with the chunks (CHUNKS_HASH_OPTION): the chunks as parsed, not their file's bytes. */
function hashOf(chunks: ImportedChunk[]): number {
  const canonical = JSON.stringify(chunks.map((c) => [c.document ?? null, c.text, c.start ?? null, c.end ?? null]));
  return Number.parseInt(createHash("sha256").update(canonical).digest("hex").slice(0, 12), 16);
}

/** The drafts of a document's imported chunks: located in its text, then measured (the chunking worker runs this). */
export function importedDrafts(chunks: ChunksImport, document: ImportTarget): ChunkDraft[] {
  return spansToDrafts(new TokenIndex(document.text), locateImportedChunks(chunks, [document]).spans.get(document.id)!);
}

/**
 * Imported chunks as a registry entry with no parameters (only search variants apply:
 * `mine@retrieval=keyword`, `mine@top_k=3`). `taken` are the names already registered. Its
 * strategy gives a document's chunks (`importedChunks`) for the chunking worker to locate and measure; a
 * document is matched as in `locateImportedChunks`, which the benchmark runs over its whole
 * corpus before anything is processed.
 */
export function importedChunksDefinition(imp: ChunksImport, taken: readonly string[]): StrategyDefinition {
  const { name } = imp;
  const fail = (problem: string) => new ValidationError(`${imp.source}: ${problem}`);
  if (!STRATEGY_NAME.test(name)) throw fail(`the name "${name}" must be lowercase letters, digits and _, starting with a letter (--chunks name=FILE)`);
  if (name === "all") throw fail(`"all" is not a strategy name (it means every strategy)`);
  if (taken.includes(name)) throw fail(`the name "${name}" is taken by another strategy; choose another`);
  if (imp.chunks.length === 0) throw fail("no chunks");
  const hash = hashOf(imp.chunks);
  return {
    name,
    description: `chunks imported from ${imp.source.replace(/^chunks file /, "")}`,
    parameters: [],
    async create(given = {}) {
      const { [CHUNKS_HASH_OPTION]: pinned, ...rest } = given;
      const unknown = Object.keys(rest);
      if (unknown.length > 0) throw new ValidationError(`${name}: imported chunks take no options (got ${unknown.join(", ")})`);
      if (pinned !== undefined && Number(pinned) !== hash) throw new ValidationError(`${name}: the imported chunks changed during the run`);
      // This document's chunks (those naming it, or naming none).
      const chunksOf = (document: ImportTarget): ChunksImport => {
        const mine = imp.chunks.flatMap((c, i) => (c.document === undefined || named([document], c.document).length > 0 ? [i] : []));
        // The file's unread lines were reported over the whole corpus before any document is chunked.
        return { ...imp, chunks: mine.map((i) => imp.chunks[i]!), places: mine.map((i) => imp.places?.[i] ?? `line ${i + 1}`), unread: [] };
      };
      const strategy: ChunkingStrategy = {
        name,
        retrieval: "dense",
        options: { [CHUNKS_HASH_OPTION]: hash },
        importedChunks: chunksOf,
        async chunk({ document }) {
          return importedDrafts(chunksOf(document), document);
        },
      };
      return strategy;
    },
  };
}
