import { createHash } from "node:crypto";
import { ValidationError } from "../errors.js";
import type { Span } from "../text/spans.js";
import { TokenIndex } from "../text/token-index.js";
import { spansToDrafts } from "./packing.js";
import { locateString, preview, STRATEGY_NAME } from "./strategy-module.js";
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
}

/** A document of the benchmarked corpus, as imported chunks are matched against it. */
export interface ImportTarget {
  id: string;
  filename: string;
  text: string;
}

/**
 * A hidden option recorded with imported chunks: a hash of the chunks. A re-run reuses the stored
 * chunks only when the recorded options equal the variant's (services/bench.ts,
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
 * skipped, other fields ignored). A line that is not JSON or lacks a field is a ValidationError
 * naming the file and the line; so is a file without chunks.
 */
export function parseChunksJsonl(name: string, source: string, content: string): ChunksImport {
  const chunks: ImportedChunk[] = [];
  const places: string[] = [];
  content.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    const fail = (problem: string) => new ValidationError(`chunks file ${source}, line ${i + 1}: ${problem}`);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw fail(`not valid JSON (${messageOf(error)})`);
    }
    chunks.push(checkChunk(value, fail));
    places.push(`line ${i + 1}`);
  });
  if (chunks.length === 0) throw new ValidationError(`chunks file ${source}: no chunks (one {"document", "text", "start"?, "end"?} object per line)`);
  return { name, source: `chunks file ${source}`, chunks, places };
}

/** Chunks given inline (an HTTP request's `chunks: {name: [...]}`), checked as a file's lines are. */
export function chunksFromList(name: string, source: string, list: unknown): ChunksImport {
  if (!Array.isArray(list)) throw new ValidationError(`${source}: must be an array of {document, text, start?, end?}`);
  if (list.length === 0) throw new ValidationError(`${source}: no chunks`);
  const chunks = list.map((value, i) => checkChunk(value, (problem) => new ValidationError(`${source}, item ${i + 1}: ${problem}`)));
  return { name, source, chunks, places: chunks.map((_, i) => `item ${i + 1}`) };
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

/**
 * Places every chunk of an import in its document of `documents` (the benchmarked corpus), in
 * file order per document: with offsets, the text there must equal the chunk's up to white
 * space; without, the chunk is located like a strategy module's strings (strategy-module.ts,
 * `locateString`), white space differences allowed. Every document must get a chunk. Anything
 * wrong is a ValidationError naming the source, the line and the problem.
 */
export function locateImportedChunks(imp: ChunksImport, documents: readonly ImportTarget[]): Map<string, Span[]> {
  const spans = new Map<string, Span[]>(documents.map((d) => [d.id, []]));
  const normalise = (s: string) => s.replace(/\s+/g, " ").trim();
  imp.chunks.forEach((chunk, i) => {
    const fail = (problem: string) => new ValidationError(`${placeOf(imp, i)}: ${problem}`);
    let document: ImportTarget;
    if (chunk.document === undefined) {
      if (documents.length > 1) {
        throw fail(`no "document" (the benchmark searches ${documents.length} documents; name the chunk's by file name or id): ${preview(chunk.text)}`);
      }
      document = documents[0]!;
    } else {
      const found = named(documents, chunk.document);
      if (found.length === 0) {
        const names = documents.map((d) => d.filename);
        throw fail(`no document "${chunk.document}" in the benchmark (documents: ${names.slice(0, 10).join(", ")}${names.length > 10 ? ", …" : ""})`);
      }
      if (found.length > 1) throw fail(`"${chunk.document}" names ${found.length} documents of the benchmark; use the document id`);
      document = found[0]!;
    }
    const list = spans.get(document.id)!;
    let span: Span | null;
    if (chunk.start !== undefined && chunk.end !== undefined) {
      if (chunk.end > document.text.length) {
        throw fail(`"end" ${chunk.end} is past the end of ${document.filename}'s text (${document.text.length} characters): ${preview(chunk.text)}`);
      }
      if (normalise(document.text.slice(chunk.start, chunk.end)) !== normalise(chunk.text)) {
        throw fail(
          `the text of ${document.filename} at ${chunk.start}-${chunk.end} is ${preview(document.text.slice(chunk.start, chunk.end))}, ` +
            `not the chunk's ${preview(chunk.text)}`,
        );
      }
      span = { start: chunk.start, end: chunk.end };
    } else {
      span = locateString(document.text, chunk.text, list.at(-1) ?? null, { looseWhiteSpace: true });
      if (!span) throw fail(`the text is not in ${document.filename}: ${preview(chunk.text)}`);
    }
    list.push(span);
  });
  for (const d of documents) {
    if (spans.get(d.id)!.length === 0) {
      throw new ValidationError(
        `${imp.source}: no chunk for the document ${d.filename} (${d.id}); chunks of "${imp.name}" must cover every document benchmarked`,
      );
    }
  }
  return spans;
}

/** The hash recorded with the chunks (CHUNKS_HASH_OPTION): the chunks as parsed, not their file's bytes. */
function hashOf(chunks: ImportedChunk[]): number {
  const canonical = JSON.stringify(chunks.map((c) => [c.document ?? null, c.text, c.start ?? null, c.end ?? null]));
  return Number.parseInt(createHash("sha256").update(canonical).digest("hex").slice(0, 12), 16);
}

/** The drafts of a document's imported chunks: located in its text, then measured (the chunking worker runs this). */
export function importedDrafts(chunks: ChunksImport, document: ImportTarget): ChunkDraft[] {
  return spansToDrafts(new TokenIndex(document.text), locateImportedChunks(chunks, [document]).get(document.id)!);
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
        return { ...imp, chunks: mine.map((i) => imp.chunks[i]!), places: mine.map((i) => imp.places?.[i] ?? `line ${i + 1}`) };
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
