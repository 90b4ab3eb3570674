import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { hashBytes } from "../../domain/hash.js";
import { NotFoundError, ValidationError } from "../../errors.js";
import { readInputFile } from "./context.js";
import { SUPPORTED_EXTENSIONS } from "../../api/about.js";
import { isDocumentPath } from "../../api/documents.js";
import type { Chunkeval, CorpusTarget, UploadInput } from "../../api/index.js";

/** True for a pattern the shell left unexpanded (quoted): `docs/*.md`, `corpus/**\/*.pdf`. */
const isGlob = (arg: string) => /[*?]/.test(arg);

/** `*` and `?` within a path segment, `**` across segments; matched against `/`-separated relative paths. */
function globToRegExp(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      out += ".*";
      i++;
      if (pattern[i + 1] === "/") i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** Every file below a folder (hidden files and folders left out), sorted. */
function filesBelow(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((e) => !e.name.startsWith("."))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? filesBelow(join(folder, e.name)) : e.isFile() ? [join(folder, e.name)] : []));
}

/** Expands folders and quoted globs into document files; other files are kept as given (parsing refuses them clearly). */
function expandPaths(args: string[]): { files: string[]; skipped: string[] } {
  const files: string[] = [];
  const skipped: string[] = [];
  for (const arg of args) {
    if (isGlob(arg)) {
      const base = globBase(arg);
      const matcher = globToRegExp(relative(base, arg).split("\\").join("/"));
      const found = existsSync(base) ? filesBelow(base).filter((f) => matcher.test(relative(base, f).split("\\").join("/"))) : [];
      if (found.length === 0) throw new ValidationError(`${arg}: no file matches`);
      files.push(...found);
    } else if (existsSync(arg) && statSync(arg).isDirectory()) {
      const below = filesBelow(arg);
      files.push(...below.filter(isDocumentPath));
      skipped.push(...below.filter((f) => !isDocumentPath(f)));
    } else if (!existsSync(arg)) {
      // Not found whatever its shape (`a.docx`, `./a.docx`, `/tmp/a.docx`), said as it was typed.
      throw new NotFoundError(`${arg}: no such file, and not a stored document (see chunkeval documents)`);
    } else files.push(arg);
  }
  // One file given twice (`a.md ./a.md`) is read once, named as it was first given.
  const byResolved = new Map<string, string>();
  for (const file of files) if (!byResolved.has(resolve(file))) byResolved.set(resolve(file), file);
  return { files: [...byResolved.values()], skipped };
}

/** The folder a glob searches from: its path up to the first segment with a wildcard. */
function globBase(pattern: string): string {
  const segments = pattern.split("/");
  return (
    segments
      .slice(
        0,
        segments.findIndex((segment) => isGlob(segment)),
      )
      .join("/") || "."
  );
}

/**
 * A name for the collection of documents given without --collection: the folder's (or the
 * glob's folder's), and a hash of what they are (a file's bytes, a stored document's id), so
 * the same files name the same collection.
 */
function collectionNameFor(args: string[], identities: string[]): string {
  const only = args.length === 1 ? args[0]! : null;
  const folder = only === null ? "files" : basename(resolve(isGlob(only) ? globBase(only) : only));
  return `${folder}-${hashBytes(Buffer.from(identities.sort().join("\n"))).slice(0, 8)}`;
}

/** An argument read as files: a glob, something on disk, or a path (a separator) that is not there (reading it says so). */
const isPathArgument = (arg: string) => isGlob(arg) || existsSync(arg) || /[\\/]/.test(arg);

/**
 * The stored document an argument names: its id, or the file name it was stored under (when
 * one document has it; several must be told apart by id). Null when it names none.
 */
async function storedDocumentId(app: Chunkeval, arg: string): Promise<string | null> {
  try {
    return (await app.getDocument(arg)).id;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const named = await app.documentIdsNamed(arg);
  if (named.length > 1) throw new ValidationError(`${named.length} stored documents are named ${arg} (${named.join(", ")}): give the id of one`);
  return named[0] ?? null;
}

/**
 * The stored document an argument names, its id or the file name it was uploaded under, for the
 * commands that read one (`documents show`, `chunks`); not found (exit 3) when it names none.
 */
export async function requireStoredDocumentId(app: Chunkeval, arg: string): Promise<string> {
  const id = await storedDocumentId(app, arg);
  if (id === null) throw new NotFoundError(`document not found: ${arg} (give its id or the file name it was uploaded under; chunkeval documents lists them)`);
  return id;
}

/**
 * What `bench` and `questions generate` were given: one document (an id, a stored document's
 * file name, or one file), a collection id or name, or several documents: a folder, several
 * files or ids, a glob, or a mix (a collection named by `--collection` or after the folder and
 * its contents; stored documents come first, then files). Files are read within max_upload_mb.
 * An argument that is neither a file nor a stored document (nor, alone, a collection) is not found.
 */
export async function resolveCorpusArgs(app: Chunkeval, args: string[], collection: string | undefined): Promise<CorpusTarget & { skipped: string[] }> {
  if (args.length === 0) {
    if (!collection) throw new ValidationError("name a document, files, a folder or --collection NAME");
    await app.getCollection(collection); // not found -> exit 3
    return { collection: { name: collection }, skipped: [] };
  }
  const [only] = args;
  if (args.length === 1 && !collection && !isPathArgument(only!)) {
    const asCollection = await tryCollection(app, only!);
    if (asCollection) return { collection: { name: asCollection }, skipped: [] };
  }
  const { ids, files, uploads, skipped } = await readDocumentArgs(app, args, args.length === 1 ? " or collection" : "");
  const isFolder = existsSync(only!) && statSync(only!).isDirectory();
  if (!collection && !isFolder && ids.length + files.length === 1) return { document: ids.length === 1 ? { id: ids[0]! } : uploads[0]!, skipped };
  return {
    collection: {
      name: collection ?? collectionNameFor(args, [...ids, ...uploads.map((u) => hashBytes(u.bytes))]),
      add: [...ids.map((id) => ({ id })), ...uploads],
    },
    skipped,
  };
}

/**
 * The documents that arguments name: stored ones (an id, or the file name one was stored under)
 * and files (paths, folders, quoted globs; read by readDocumentFiles). An argument that is
 * neither is not found (exit 3); `orElse` says what else it was looked up as.
 */
export async function readDocumentArgs(
  app: Chunkeval,
  args: string[],
  orElse = "",
): Promise<{ ids: string[]; files: string[]; uploads: UploadInput[]; skipped: string[] }> {
  const stored: string[] = [];
  const paths: string[] = [];
  for (const arg of args) {
    const id = isPathArgument(arg) ? null : await storedDocumentId(app, arg);
    if (id !== null) stored.push(id);
    else if (isPathArgument(arg)) paths.push(arg);
    else throw new NotFoundError(`${arg}: neither a file nor a stored document${orElse} (see chunkeval documents)`);
  }
  const read = paths.length > 0 ? await readDocumentFiles(app, paths) : { files: [], uploads: [], skipped: [] };
  return { ids: [...new Set(stored)], ...read };
}

/** The document files that paths, folders and globs name, read within max_upload_mb; file names must be distinct. */
export async function readDocumentFiles(app: Chunkeval, args: string[]): Promise<{ files: string[]; uploads: UploadInput[]; skipped: string[] }> {
  const { files, skipped } = expandPaths(args);
  if (files.length === 0) throw new ValidationError(`${args.join(" ")}: no document found (formats: ${SUPPORTED_EXTENSIONS.join(", ")})`);
  checkDistinctNames(files);
  const uploads: UploadInput[] = [];
  for (const file of files) uploads.push({ filename: basename(file), bytes: await readInputFile(file, app.config.maxUploadMb) });
  return { files, uploads, skipped };
}

async function tryCollection(app: Chunkeval, name: string): Promise<string | null> {
  try {
    return (await app.getCollection(name)).id;
  } catch {
    return null;
  }
}

/** References name documents by file name, so two files of one name in a collection would be ambiguous. */
function checkDistinctNames(files: string[]): void {
  const seen = new Map<string, string>();
  for (const file of files) {
    const name = basename(file);
    const other = seen.get(name);
    if (other) throw new ValidationError(`two documents named ${name} (${other} and ${file}): references could not tell them apart; rename one`);
    seen.set(name, file);
  }
}
