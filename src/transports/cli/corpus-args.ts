import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import type { Chunkeval } from "../../chunkeval.js";
import { hashBytes } from "../../domain/hash.js";
import { ValidationError } from "../../errors.js";
import { isDocumentPath, SUPPORTED_EXTENSIONS, type UploadInput } from "../../services/documents.js";
import type { CorpusTarget } from "../../services/collections.js";
import { readInputFile } from "./context.js";

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
    } else files.push(arg);
  }
  return { files: [...new Set(files.map((f) => resolve(f)))].map((f) => relative(process.cwd(), f) || f), skipped };
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
 * A name for the collection of files given without --collection: the folder's (or the glob's
 * folder's), and a hash of the contents, so the same files name the same collection.
 */
function collectionNameFor(args: string[], contents: Buffer[]): string {
  const only = args.length === 1 ? args[0]! : null;
  const folder = only === null ? "files" : basename(resolve(isGlob(only) ? globBase(only) : only));
  const digest = hashBytes(
    Buffer.from(
      contents
        .map((b) => hashBytes(b))
        .sort()
        .join("\n"),
    ),
  ).slice(0, 8);
  return `${folder}-${digest}`;
}

/**
 * What `bench` and `questions generate` were given: a document id or one file (one document),
 * a collection id or name, or a folder, several files or a glob (a collection, named by
 * `--collection` or after the folder and its contents). Files are read within max_upload_mb.
 */
export async function resolveCorpusArgs(app: Chunkeval, args: string[], collection: string | undefined): Promise<CorpusTarget & { skipped: string[] }> {
  if (args.length === 0) {
    if (!collection) throw new ValidationError("name a document, files, a folder or --collection NAME");
    app.getCollection(collection); // not found -> exit 3
    return { collection: { name: collection }, skipped: [] };
  }
  const [only] = args;
  const pathLike = args.length > 1 || isGlob(only!) || isDocumentPath(only!) || existsSync(only!) || /[\\/]/.test(only!);
  if (!pathLike) {
    if (collection) throw new ValidationError("--collection takes files or a folder to add, not a document id");
    const asCollection = tryCollection(app, only!);
    if (asCollection) return { collection: { name: asCollection }, skipped: [] };
    app.getDocument(only!); // not found -> exit 3
    return { document: { id: only! }, skipped: [] };
  }
  const { files, uploads, skipped } = await readDocumentFiles(app, args);
  const single = files.length === 1 && !collection && !(existsSync(only!) && statSync(only!).isDirectory());
  if (single) return { document: uploads[0]!, skipped };
  return {
    collection: {
      name:
        collection ??
        collectionNameFor(
          args,
          uploads.map((u) => u.bytes),
        ),
      add: uploads,
    },
    skipped,
  };
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

function tryCollection(app: Chunkeval, name: string): string | null {
  try {
    return app.getCollection(name).id;
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
