import type { Command } from "commander";
import type { CollectionRecord } from "../../../domain/types.js";
import { ConflictError, NotFoundError } from "../../../errors.js";
import { cleanUploadName } from "../../../domain/filenames.js";
import { DEFAULTS } from "../../../config/defaults.js";
import { addPagingOptions, checkPage, withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine, printTable, printNote } from "../output.js";
import { startProgress } from "../progress.js";
import { printDocumentWarnings } from "../document-warnings.js";

function printCollection(c: CollectionRecord): void {
  printLine(`${c.name} (${c.id}): ${c.documents.length} document(s), created ${c.createdAt}`);
  if (c.documents.length > 0)
    printTable(
      ["document", "filename"],
      c.documents.map((d) => [d.id, d.filename]),
    );
  printDocumentWarnings(c.documents);
}

/** The collection as JSON (`--json`) or as a line and a table of its documents. */
function showCollection(command: Command, c: CollectionRecord): void {
  if (command.optsWithGlobals<GlobalOptions>().json) printJson(c);
  else printCollection(c);
}

/** Adds stored documents and files (uploaded, or reused for the same bytes), with progress on stderr. */
async function addFiles(command: Command, name: string, paths: string[], create: boolean): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  await withChunkeval(command, async (app) => {
    if (!create) await app.getCollection(name); // not found -> exit 3, before any file is read
    const { readDocumentArgs } = await import("../corpus-args.js"); // brings the parsers: not for --help
    const { ids, uploads, skipped } = await readDocumentArgs(app, paths);
    if (skipped.length > 0 && !globals.quiet) printNote(`chunkeval: skipped ${skipped.length} file(s) of no supported format`);
    const progress = await startProgress("adding documents", globals);
    const collection = await app
      .addToCollection(name, [...ids.map((id) => ({ id })), ...uploads], { create, onProgress: progress.onProgress })
      .catch((error) => {
        progress.fail();
        throw error;
      });
    progress.succeed(`${collection.name}: ${collection.documents.length} document(s)`);
    // A file whose bytes the collection already holds under another name is not added again
    // (a document is in a collection once): say so, or a reference to its new name fails later.
    const names = new Set(collection.documents.map((d) => d.filename));
    const unnamed = uploads.map((u) => u.filename).filter((n) => !names.has(cleanUploadName(n, DEFAULTS.maxFilenameLength)));
    if (unnamed.length > 0 && !globals.quiet)
      printNote(
        `chunkeval: not added again: ${unnamed.join(", ")} (the same bytes as a document ${collection.name} already holds under another name; ` +
          `references use that name)`,
      );
    showCollection(command, collection);
  });
}

export function registerCollectionsCommand(program: Command): void {
  const collections = program
    .command("collections")
    .description("named sets of documents benchmarked together (bench --collection NAME): each question searches all of them");

  collections
    .command("create")
    .description("create a collection, with files, folders or quoted globs to add (uploaded, or reused when uploaded before)")
    .argument("<name>", "the collection's name")
    .argument("[files...]", "documents to add: files, folders, quoted globs, or stored documents (id or file name)")
    .option("--json", "print only JSON on stdout")
    .action(async (name: string, files: string[], _options, command: Command) => {
      if (files.length > 0) {
        // The add below makes the collection and takes it back if a file is refused, so a refused
        // create leaves no empty collection holding the name.
        await withChunkeval(command, async (app) => {
          const taken = await app.getCollection(name).then(
            (c) => c.name,
            (error: unknown) => {
              if (error instanceof NotFoundError) return null;
              throw error;
            },
          );
          if (taken !== null) throw new ConflictError(`a collection named "${taken}" already exists`);
        });
        return addFiles(command, name, files, true);
      }
      await withChunkeval(command, async (app) => {
        const collection = await app.createCollection(name);
        showCollection(command, collection);
      });
    });

  collections
    .command("add")
    .description("add files, folders or quoted globs to a collection; only the new documents are processed at the next bench")
    .argument("<collection>", "collection id or name")
    .argument("<files...>", "documents to add: files, folders, quoted globs, or stored documents (id or file name)")
    .option("--json", "print only JSON on stdout")
    .action(async (name: string, files: string[], _options, command: Command) => addFiles(command, name, files, false));

  collections
    .command("remove")
    .description("take a document out of a collection (the document stays; `chunkeval delete` deletes it and its vectors)")
    .argument("<collection>", "collection id or name")
    .argument("<document>", "document id or file name")
    .option("--json", "print only JSON on stdout")
    .action(async (name: string, document: string, _options, command: Command) => {
      await withChunkeval(command, async (app) => {
        const collection = await app.removeFromCollection(name, document);
        showCollection(command, collection);
      });
    });

  collections
    .command("show")
    .description("a collection and its documents")
    .argument("<collection>", "collection id or name")
    .option("--json", "print only JSON on stdout")
    .action(async (name: string, _options, command: Command) => {
      await withChunkeval(command, async (app) => {
        const collection = await app.getCollection(name);
        showCollection(command, collection);
      });
    });

  collections
    .command("delete")
    .description("delete a collection (its documents stay)")
    .argument("<collection>", "collection id or name")
    .option("--json", "print only JSON on stdout")
    .action(async (name: string, _options, command: Command) => {
      await withChunkeval(command, async (app) => {
        const result = await app.deleteCollection(name);
        if (command.optsWithGlobals<GlobalOptions>().json) printJson(result);
        else printLine(`deleted collection ${result.collectionId}`);
      });
    });

  addPagingOptions(collections.command("list").description("list collections, newest first"), "collections")
    .option("--json", "print only JSON on stdout")
    .action(async (options: { offset: number; limit: number }, command: Command) => {
      await withChunkeval(command, async (app) => {
        const page = await app.listCollections(checkPage(options));
        if (command.optsWithGlobals<GlobalOptions>().json) return printJson(page);
        if (page.total === 0) return printLine("No collections yet. Make one with: chunkeval collections create NAME FILES… (or chunkeval bench FOLDER)");
        printTable(
          ["id", "name", "documents", "created_at"],
          page.items.map((c) => [c.id, c.name, c.documents.length, c.createdAt]),
        );
        printLine(`${page.items.length} of ${page.total} shown (offset ${page.offset})`);
      });
    });
}
