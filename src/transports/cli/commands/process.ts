import type { Command } from "commander";
import { withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine, printTable, printNote } from "../output.js";
import { formatNumber } from "../../../domain/number-words.js";
import { nameWithId } from "../../../domain/filenames.js";
import { startProgress } from "../progress.js";
import { requireArgument } from "../prompts.js";
import { interruptible } from "../interrupt.js";
import { ExitCode } from "../../../errors.js";
import { cliIo } from "../io.js";

/**
 * What Ctrl-C kept: a strategy's index is stored whole when it is done and the one under way not
 * at all (interrupt.ts), so the document's processed strategies are exactly what is kept.
 */
function interruptedProcessLine(processed: string[]): string {
  const kept = processed.length > 0 ? `its processed strategies (${processed.join(", ")}; ask and bench use them)` : "no strategy yet";
  return (
    `chunkeval: interrupted; the strategy under way was not stored. Kept: the document, ${kept}, cached embeddings. ` +
    `Run the same command again to finish: the cached embeddings make the strategies already done quick.`
  );
}

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
        const named = nameWithId((await app.getDocument(documentId)).filename, documentId);
        const progress = await startProgress(`processing ${named}`, globals);
        const run = await interruptible((signal) =>
          app.process(documentId, options.strategies, {
            signal,
            onProgress: progress.onProgress,
          }),
        ).catch((error) => {
          progress.fail();
          throw error;
        });
        if (run.interrupted) {
          progress.fail();
          printNote(`${interruptedProcessLine(Object.keys((await app.getDocument(documentId)).chunkCounts))}`);
          cliIo().exitCode = ExitCode.interrupted;
          return;
        }
        const result = run.value;
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
          for (const note of result.notes ?? []) printLine(`note: ${note}`);
        }
        // Some strategies failing is a failed operation for scripts, even though others completed.
        if (result.strategiesFailed.length > 0) cliIo().exitCode = 1;
      });
    });
}
