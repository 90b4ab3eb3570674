import type { Command } from "commander";
import { withChunkeval, type GlobalOptions } from "../context.js";
import { formatNumber, printJson, printLine, printTable } from "../output.js";
import { nameWithId } from "../../../domain/filenames.js";
import { startProgress } from "../progress.js";
import { requireArgument } from "../prompts.js";

export function registerProcessCommand(program: Command): void {
  program
    .command("process")
    .description("chunk, embed and index a document with one or more strategies")
    .argument("[doc]", "document id")
    .option(
      "-s, --strategies <list>",
      "comma-separated strategy names or variants (name@param=value:param=value, e.g. recursive@chunk_size=128:chunk_overlap=0), or all",
      "all",
    )
    .option("--json", "print only JSON on stdout")
    .action(async (docArg: string | undefined, options: { strategies: string }, command: Command) => {
      const documentId = await requireArgument(docArg, "doc", "Document id to process:");
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withChunkeval(command, async (app) => {
        // Named as people know it: the file name, with the id beside it (a document that is not there is exit 3 here).
        const named = nameWithId(app.getDocument(documentId).filename, documentId);
        const progress = await startProgress(`processing ${named}`, globals);
        const result = await app.process(documentId, options.strategies, { onProgress: progress.onProgress }).catch((error) => {
          progress.fail();
          throw error;
        });
        progress.succeed(`processed ${named}`);
        if (globals.json) printJson(result);
        else {
          printTable(
            ["strategy", "chunks", "mean tokens", "min", "max", "seconds"],
            result.strategiesCompleted.map((s) => [
              s.strategy,
              s.chunksProduced,
              formatNumber(s.tokens.mean, 1),
              s.tokens.min,
              s.tokens.max,
              formatNumber(s.seconds, 2),
            ]),
          );
          for (const f of result.strategiesFailed) printLine(`FAILED ${f.strategy}: ${f.error}`);
        }
        // Some strategies failing is a failed operation for scripts, even though others completed.
        if (result.strategiesFailed.length > 0) process.exitCode = 1;
      });
    });
}
