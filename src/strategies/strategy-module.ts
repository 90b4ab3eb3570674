import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Block } from "../domain/types.js";
import { ChunkingError, ValidationError } from "../errors.js";
import type { Registry } from "../registry.js";
import type { Span } from "../text/spans.js";
import { TokenIndex } from "../text/token-index.js";
import { resolveOptions } from "./options.js";
import { spansToDrafts } from "./packing.js";
import { startSiblingWorker } from "../worker-threads.js";
import type { ChunkingStrategy, StrategyDefinition, StrategyParameter } from "./strategy.js";
import { EMBEDDER_PARAMETER } from "../domain/variant-key.js";

/**
 * What a strategy module's `chunk` is given: the extracted text, its structure, and the options in
 * effect. `P` names the module's parameters (e.g. `"sentences" | "overlap"`) for typed options.
 */
export interface StrategyModuleInput<P extends string = string> {
  /** The document's extracted text; returned offsets index into it. */
  text: string;
  /** Headings, paragraphs, list items and table rows with their offsets in `text` (a copy: changing it changes nothing). */
  blocks: Block[];
  title: string;
  /** The format that read the document, e.g. `docx`. */
  format: string;
  /** Every declared parameter: its default, or the configured or variant value. */
  options: Record<P, number>;
}

/** A chunk as a module returns it: a span of `text` (end exclusive), or the chunk's text itself, which chunkeval locates. */
export type StrategyModuleChunk = { start: number; end: number } | string;

export interface StrategyModuleParameter<P extends string = string> {
  /** Lowercase letters, digits and `_`, starting with a letter; used in variants (`name@param=value`). */
  name: P;
  description: string;
  default: number;
}

/**
 * A chunking strategy written by a user (`--strategy-module FILE`, config key `strategy_modules`):
 * the default export or the named export `strategy` of a JavaScript module. See docs/strategies.md "Your own
 * chunker" and examples/strategy-module/. `P` optionally names the parameters, for typed options:
 * `StrategyModule<"sentences" | "overlap">`.
 */
export interface StrategyModule<P extends string = string> {
  /** Lowercase letters, digits and `_`, starting with a letter; not a built-in strategy's name. */
  name: string;
  description: string;
  parameters?: Array<StrategyModuleParameter<P>>;
  /**
   * Optional: the parameter holding the size in tokens the chunks aim at, and the one holding the
   * tokens neighbours share. Chunk health measures the share of tiny chunks against it, and the cost
   * estimate sizes the chunks by it; without it they take no target (a size in sentences is none).
   */
  targetTokens?: P;
  overlapTokens?: P;
  /** Optional: throws to refuse options (a usage error naming the strategy) before any document is chunked. */
  validate?(options: Record<P, number>): void;
  chunk(input: StrategyModuleInput<P>): StrategyModuleChunk[] | Promise<StrategyModuleChunk[]>;
}

/**
 * A hidden option every module strategy records with its chunks: a hash of the module file's
 * contents. Cached chunks are reused only when the recorded options equal the variant's
 * (services/benchmarking/bench-indexing.ts, `ensureProcessed`), and a user who edits their chunker keeps its name and
 * parameters, so without this the edited module would be benchmarked on the old module's chunks.
 * It is a number (48 bits of SHA-256) because options are numbers everywhere they are stored.
 */
export const MODULE_HASH_OPTION = "module_hash";

/** What a user-named strategy (module or imported chunks) may be called: lowercase letters, digits and `_`, starting with a letter. */
export const STRATEGY_NAME = /^[a-z][a-z0-9_]*$/;
const NAME = STRATEGY_NAME;
const RESERVED_PARAMETERS = ["retrieval", "top_k", EMBEDDER_PARAMETER, MODULE_HASH_OPTION];
const PREVIEW_CHARACTERS = 60;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A chunk's text for an error message: its first 60 characters, white space flattened, quoted. */
export function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > PREVIEW_CHARACTERS ? `${flat.slice(0, PREVIEW_CHARACTERS).trimEnd()}…` : flat);
}

/**
 * Where a chunk given as a string lies in `text`, after the chunk before it (`previous`, null for
 * the first): looked for from the end of the previous chunk (chunks in reading order, no
 * overlap), then from just after the previous chunk's start (overlapping chunks), then from the
 * start of the text (chunks out of order); its first occurrence there is its place. With
 * `looseWhiteSpace`, a chunk found nowhere exactly is looked for again in the same order with any
 * run of white space matching any other (its span is then the text's, white space included).
 * Null when it is nowhere.
 */
export function locateString(text: string, chunk: string, previous: Span | null, options: { looseWhiteSpace?: boolean } = {}): Span | null {
  const from: number[] = previous ? [previous.end, previous.start + 1, 0] : [0];
  for (const start of from) {
    const at = text.indexOf(chunk, start);
    if (at !== -1) return { start: at, end: at + chunk.length };
  }
  if (!options.looseWhiteSpace) return null;
  const words = chunk.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"), "g");
  try {
    for (const start of from) {
      pattern.lastIndex = start;
      const match = pattern.exec(text);
      if (match) return { start: match.index, end: match.index + match[0].length };
    }
  } catch {
    // "Regular expression too large" (V8 says so when it first runs one): a word of hundreds of
    // thousands of characters, which is not in the text as written either.
  }
  return null;
}

/**
 * Turns what a module's `chunk` returned into spans of `text`. Spans are checked (whole numbers,
 * 0 <= start < end <= text.length). A string is looked for from the end of the previous chunk
 * (chunks in reading order, no overlap), then from just after the previous chunk's start
 * (overlapping chunks), then from the start of the text (chunks out of order); its first
 * occurrence there is its place. A string found nowhere, or a chunk of only white space, is an error naming the chunk.
 */
export function locateChunks(strategy: string, text: string, chunks: unknown): Span[] {
  if (!Array.isArray(chunks)) throw new ChunkingError(`${strategy}: chunk() must return an array of spans or strings, got ${typeof chunks}`);
  const spans: Span[] = [];
  let previous: Span | null = null;
  for (const [i, item] of chunks.entries()) {
    const which = `chunk ${i + 1} of ${chunks.length}`;
    let span: Span;
    if (typeof item === "string") {
      if (item.length === 0) throw new ChunkingError(`${strategy}: ${which} is an empty string`);
      const found = locateString(text, item, previous);
      if (!found) throw new ChunkingError(`${strategy}: ${which} is not in the document text: ${preview(item)}`);
      span = found;
    } else if (item !== null && typeof item === "object" && "start" in item && "end" in item) {
      const { start, end } = item as { start: unknown; end: unknown };
      const valid =
        Number.isInteger(start) && Number.isInteger(end) && (start as number) >= 0 && (start as number) < (end as number) && (end as number) <= text.length;
      if (!valid) {
        throw new ChunkingError(
          `${strategy}: ${which} is not a span of the text: {start: ${String(start)}, end: ${String(end)}} ` +
            `(need whole numbers, 0 <= start < end <= ${text.length})`,
        );
      }
      span = { start: start as number, end: end as number };
    } else {
      throw new ChunkingError(`${strategy}: ${which} is neither a string nor {start, end}: ${preview(JSON.stringify(item) ?? String(item))}`);
    }
    // A chunk of only white space embeds as noise and can never hold a reference: refuse it like
    // an empty string (imported chunks are refused the same way).
    if (text.slice(span.start, span.end).trim() === "") throw new ChunkingError(`${strategy}: ${which} is only white space`);
    spans.push(span);
    previous = span;
  }
  return spans;
}

function checkShape(exported: unknown, fail: (problem: string) => ValidationError): StrategyModule {
  if (exported === null || typeof exported !== "object") throw fail("it exports no strategy (a default export or an export named `strategy`, an object)");
  const m = exported as Record<string, unknown>;
  if (typeof m.name !== "string" || !NAME.test(m.name)) {
    throw fail(`"name" must be lowercase letters, digits and _, starting with a letter; got ${JSON.stringify(m.name)}`);
  }
  if (m.name === "all") throw fail(`"all" is not a strategy name (it means every strategy)`);
  if (typeof m.description !== "string" || m.description.trim() === "") throw fail(`"description" must be a non-empty string`);
  if (typeof m.chunk !== "function") throw fail(`"chunk" must be a function`);
  if (m.validate !== undefined && typeof m.validate !== "function") throw fail(`"validate", if given, must be a function`);
  if (m.parameters !== undefined && !Array.isArray(m.parameters)) throw fail(`"parameters" must be an array`);
  const seen = new Set<string>();
  for (const [i, p] of ((m.parameters as unknown[] | undefined) ?? []).entries()) {
    const q = (p ?? {}) as Record<string, unknown>;
    const which = `parameter ${i + 1}${typeof q.name === "string" ? ` ("${q.name}")` : ""}`;
    if (typeof q.name !== "string" || !NAME.test(q.name)) throw fail(`${which}: "name" must be lowercase letters, digits and _, starting with a letter`);
    if (RESERVED_PARAMETERS.includes(q.name)) throw fail(`${which}: "${q.name}" is reserved (${RESERVED_PARAMETERS.join(", ")})`);
    if (seen.has(q.name)) throw fail(`${which}: declared twice`);
    seen.add(q.name);
    if (typeof q.description !== "string") throw fail(`${which}: "description" must be a string`);
    if (typeof q.default !== "number" || !Number.isFinite(q.default)) throw fail(`${which}: "default" must be a finite number`);
  }
  for (const key of ["targetTokens", "overlapTokens"]) {
    if (m[key] !== undefined && !seen.has(m[key] as string)) throw fail(`"${key}", if given, must name one of its parameters; got ${JSON.stringify(m[key])}`);
  }
  return m as unknown as StrategyModule;
}

/** The registry entry of a checked module; `hash` is recorded with its chunks (MODULE_HASH_OPTION). */
function definitionOf(module: StrategyModule, path: string, hash: number): StrategyDefinition {
  const name = module.name;
  const parameters: StrategyParameter[] = (module.parameters ?? []).map((p) => ({ name: p.name, description: p.description, default: p.default }));
  return {
    name,
    description: module.description,
    parameters,
    ...(module.targetTokens ? { sizing: { target: module.targetTokens, ...(module.overlapTokens ? { overlap: module.overlapTokens } : {}) } } : {}),
    async create(given = {}) {
      const { [MODULE_HASH_OPTION]: pinned, ...rest } = given;
      // Options recorded by another load of the module (the chunking worker gets the options this
      // thread resolved) must come from the same file contents, or the chunks would be mislabelled.
      if (pinned !== undefined && Number(pinned) !== hash) {
        throw new ValidationError(`${name}: the module ${path} changed since chunkeval loaded it; run the command again (restart \`serve\`)`);
      }
      const options = resolveOptions(name, parameters, rest);
      if (module.validate) {
        try {
          module.validate({ ...options });
        } catch (error) {
          throw new ValidationError(`${name}: ${messageOf(error)}`);
        }
      }
      const strategy: ChunkingStrategy = {
        name,
        retrieval: "dense",
        options: { ...options, [MODULE_HASH_OPTION]: hash },
        module: path,
        async chunk({ document }) {
          const input: StrategyModuleInput = {
            text: document.text,
            blocks: document.blocks.map((b) => ({ ...b })),
            title: document.title,
            format: document.format,
            options: { ...options },
          };
          let returned: unknown;
          try {
            returned = await module.chunk(input);
          } catch (error) {
            throw new ChunkingError(`${name}: chunk() failed: ${messageOf(error)}`);
          }
          const index = new TokenIndex(document.text);
          return spansToDrafts(index, locateChunks(name, document.text, returned));
        },
      };
      return strategy;
    },
  };
}

/** How long importing a strategy module may take: its top level runs once, and should be quick. */
export const MODULE_IMPORT_TIMEOUT_SECONDS = 10;
/** Module URLs (contents included) this thread has seen settle in a probe. */
const probed = new Set<string>();

/**
 * Imports the module first in a throwaway worker thread under a deadline: a top-level await that
 * never settles (on this thread Node would exit with code 13 and no word) or a loop at import time
 * (it would hang this thread for good) becomes an error naming the module. An import that throws
 * is left to the real import, which says why.
 */
async function probeImport(url: string, fail: (problem: string) => Error): Promise<void> {
  if (probed.has(url)) return;
  const worker = startSiblingWorker(import.meta.url, "module-probe-worker", { workerData: { url } });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            fail(
              `importing it did not finish within ${MODULE_IMPORT_TIMEOUT_SECONDS} s ` +
                "(a top-level await that never settles, or a loop when the module loads?)",
            ),
          ),
        MODULE_IMPORT_TIMEOUT_SECONDS * 1000,
      );
      worker.once("message", () => (clearTimeout(timer), resolve()));
      worker.once("error", () => (clearTimeout(timer), resolve()));
      // Node ends a thread whose top-level await can never settle (nothing left to wait for).
      worker.once("exit", () => {
        clearTimeout(timer);
        reject(fail("importing it never finished: its top-level await waits for something that can never happen"));
      });
    });
  } finally {
    worker.removeAllListeners("exit");
    await worker.terminate();
  }
  probed.add(url);
}

/**
 * Imports a strategy module and checks it, as a registry entry. The module is imported under a
 * URL carrying its content hash: the same contents are imported once per thread, and edited
 * contents are imported afresh (a long-running server's worker meets them as a changed module).
 * Anything wrong is a ValidationError naming the file and the problem.
 */
export async function loadStrategyModule(file: string, cwd = process.cwd()): Promise<StrategyDefinition> {
  const path = resolve(cwd, file);
  const fail = (problem: string) => new ValidationError(`strategy module ${path}: ${problem}`);
  let source: Buffer;
  try {
    source = await readFile(path);
  } catch (error) {
    throw fail(`cannot read it (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`);
  }
  const digest = createHash("sha256").update(source).digest("hex");
  const url = `${pathToFileURL(path).href}?sha256=${digest.slice(0, 16)}`;
  await probeImport(url, fail);
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw fail(`cannot import it: ${messageOf(error)}`);
  }
  const exported = namespace.default ?? namespace.strategy;
  return definitionOf(checkShape(exported, fail), path, Number.parseInt(digest.slice(0, 12), 16));
}

/**
 * Loads strategy modules into a registry beside the built-in strategies. A module may not take a
 * name already registered (a built-in strategy's or another module's).
 */
export async function registerStrategyModules(registry: Registry<StrategyDefinition>, files: readonly string[], cwd = process.cwd()): Promise<void> {
  const from = new Map<string, string>();
  for (const file of files) {
    const path = resolve(cwd, file);
    if ([...from.values()].includes(path)) continue; // the same file listed twice
    const definition = await loadStrategyModule(path);
    if (registry.names().includes(definition.name)) {
      const other = from.get(definition.name);
      throw new ValidationError(
        `strategy module ${path}: the name "${definition.name}" is taken by ${other ? `the strategy module ${other}` : "a built-in strategy"}; choose another`,
      );
    }
    registry.register(definition);
    from.set(definition.name, path);
  }
}
