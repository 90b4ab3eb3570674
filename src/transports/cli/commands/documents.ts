import { basename } from "node:path";
import type { Command } from "commander";
import type { DocumentRecord } from "../../../domain/types.js";
import { addPagingOptions, checkPage, readInputFile, withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine, printTable } from "../output.js";
import { requireArgument } from "../prompts.js";
import { cliIo } from "../io.js";
import { SUPPORTED_FORMATS_TEXT } from "../../../api/about.js";
import { requireStoredDocumentId } from "../corpus-args.js";

function printDocument(doc: DocumentRecord): void {
  printTable(
    ["id", "filename", "paragraphs", "chunk counts", "created_at"],
    [[doc.id, doc.filename, doc.paragraphCount, JSON.stringify(doc.chunkCounts), doc.createdAt]],
  );
}

export function registerDocumentCommands(program: Command): void {
  program
    .command("chunks")
    .description("list a processed strategy's (or variant's) chunks of a document: offsets, page, tokens and text")
    .argument("<doc>", "document id, or the file name it was uploaded under")
    .requiredOption("-s, --strategy <name>", "the strategy or variant (recursive, recursive@chunk_size=128), or chunks a bench imported")
    .option("--full", "print each chunk's whole text (default: its first words)")
    .option("--json", "print only JSON on stdout")
    .action(async (id: string, options: { strategy: string; full?: boolean }, command: Command) => {
      await withChunkeval(command, async (app) => {
        const listed = await app.documentChunks(await requireStoredDocumentId(app, id), options.strategy);
        if (command.optsWithGlobals<GlobalOptions>().json) return printJson(listed);
        const shown = (text: string) => (options.full || text.length <= 70 ? text : `${text.slice(0, 67)}...`);
        printTable(
          ["#", "role", "start-end", "page", "tokens", "text"],
          listed.chunks.map((c) => [c.position, c.role, `${c.start}-${c.end}`, c.page ?? "", c.tokenCount, shown(c.text)]),
        );
        const searched = listed.chunks.filter((c) => c.role === "chunk").length;
        printLine(`${listed.chunks.length} chunks of ${listed.filename} by ${listed.strategy} (${searched} searched)`);
      });
    });

  program
    .command("upload")
    .description(`upload a document (${SUPPORTED_FORMATS_TEXT}) and print its Document record; bytes already stored return the stored document`)
    .argument("[file]", "path of the document")
    .option("--new", "store a new document even if the same bytes are stored already (default: return the stored one)")
    .option("--json", "print only JSON on stdout")
    .action(async (fileArg: string | undefined, options: { new?: boolean }, command: Command) => {
      const file = await requireArgument(fileArg, "file", `Document to upload (${SUPPORTED_FORMATS_TEXT}):`);
      await withChunkeval(command, async (app) => {
        const bytes = await readInputFile(file, app.config.maxUploadMb);
        const doc = await app.upload({ filename: basename(file), bytes }, { forceNew: options.new });
        const json = command.optsWithGlobals<GlobalOptions>().json;
        if (doc.alreadyStored) {
          const note = `already stored: these bytes are document ${doc.id} "${doc.filename}"; nothing new was stored (--new stores a second copy)`;
          // Only JSON on stdout with --json: the note goes to stderr there, `already_stored` says it in the JSON.
          if (json) cliIo().stderr.write(`${note}\n`);
          else printLine(note);
        }
        // Warnings go to stderr, beside the record (and its JSON) on stdout.
        for (const warning of doc.warnings) cliIo().stderr.write(`warning: ${warning}\n`);
        if (json) printJson(doc);
        else printDocument(doc);
      });
    });

  const documents = addPagingOptions(
    program.command("documents").description("list uploaded documents, newest first; documents show DOC prints one's extracted text"),
    "documents",
  );
  documents
    .command("show")
    .description("a document's record and what was extracted: --text (the text, page and heading marks), --blocks (each block's kind, offsets, page)")
    .argument("<doc>", "document id, or the file name it was uploaded under")
    .option("--text", "print the extracted text, each block on its own paragraph, with [page N] where the page changes and # before headings")
    .option("--blocks", "print the blocks: kind, level, start-end offsets, page, and the first words")
    .option("--json", "print only JSON on stdout (the record, the text and the blocks)")
    .action(async (id: string, options: { text?: boolean; blocks?: boolean }, command: Command) => {
      await withChunkeval(command, async (app) => {
        const doc = await app.getDocument(await requireStoredDocumentId(app, id));
        if (command.optsWithGlobals<GlobalOptions>().json) return printJson(doc);
        if (!options.text && !options.blocks) {
          printDocument(doc);
          const pages = new Set(doc.blocks.map((b) => b.page).filter((p) => p !== undefined)).size;
          const headings = doc.blocks.filter((b) => b.kind === "heading").length;
          printLine(
            `format ${doc.format}, title "${doc.title}", ${doc.text.length} characters, ${doc.blocks.length} blocks, ${headings} headings` +
              `${pages > 0 ? `, ${pages} pages` : ""} (--text prints the text, --blocks the blocks)`,
          );
          // What reading it warned of when it was uploaded (pages left out): still true of the stored text.
          for (const warning of doc.warnings ?? []) printLine(`warning: ${warning}`);
          return;
        }
        if (options.blocks) {
          printTable(
            ["kind", "level", "start-end", "page", "text"],
            doc.blocks.map((b) => [b.kind, b.level, `${b.start}-${b.end}`, b.page ?? "", b.text.length > 60 ? `${b.text.slice(0, 57)}...` : b.text]),
          );
        }
        if (options.text) {
          let page: number | undefined;
          for (const b of doc.blocks) {
            if (b.page !== undefined && b.page !== page) printLine(`[page ${(page = b.page)}]`);
            printLine(`${b.kind === "heading" ? `${"#".repeat(Math.max(1, b.level))} ` : ""}${doc.text.slice(b.start, b.end)}\n`);
          }
        }
      });
    });
  documents.option("--json", "print only JSON on stdout").action(async (options: { offset: number; limit: number }, command: Command) => {
    await withChunkeval(command, async (app) => {
      const page = await app.listDocuments(checkPage(options));
      if (command.optsWithGlobals<GlobalOptions>().json) return printJson(page);
      if (page.total === 0) return printLine(`No documents yet. Upload one with: chunkeval upload FILE (${SUPPORTED_FORMATS_TEXT})`);
      if (page.items.length === 0) return printLine(`${page.total} documents; none at offset ${page.offset}`);
      printTable(
        ["id", "filename", "paragraphs", "chunk counts", "created_at"],
        page.items.map((d) => [d.id, d.filename, d.paragraphCount, JSON.stringify(d.chunkCounts), d.createdAt]),
      );
      printLine(`${page.items.length} of ${page.total} shown (offset ${page.offset})`);
    });
  });

  program
    .command("delete")
    .description("delete a document with its chunks, vectors and stored file")
    .argument("[id]", "document id")
    .option("--json", "print only JSON on stdout")
    .action(async (idArg: string | undefined, _options, command: Command) => {
      const id = await requireArgument(idArg, "id", "Document id to delete:");
      await withChunkeval(command, async (app) => {
        await app.getDocument(id); // not found (exit 3) before any job is cancelled
        // First, so its jobs fail saying why, not "not found" midway (as DELETE /documents/ID).
        await app.cancelSharedJobsOf(id);
        const result = await app.deleteDocument(id);
        if (command.optsWithGlobals<GlobalOptions>().json) printJson(result);
        else printLine(`deleted ${result.documentId}`);
      });
    });
}
