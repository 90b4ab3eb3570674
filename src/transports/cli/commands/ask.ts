import type { Command } from "commander";
import { ValidationError } from "../../../errors.js";
import type { QueryRecord } from "../../../domain/types.js";
import { parseInteger, withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine, printTable, shorten } from "../output.js";
import { formatNumber } from "../../../domain/number-words.js";
import { requireArgument } from "../prompts.js";

function printQuery(q: QueryRecord): void {
  printLine(`Q: ${q.question}`);
  printLine(`A: ${q.answer}`);
  printLine();
  printTable(
    ["#", "score", "chunk_id", "parent_id", "text"],
    q.retrievedChunks.map((c, i) => [i + 1, formatNumber(c.score, 4), c.chunkId, c.parentId ?? "-", shorten(c.text, 90)]),
  );
  const l = q.latencyBreakdown;
  printLine(
    `latency: embed ${formatNumber(l.embedSeconds)}s, search ${formatNumber(l.searchSeconds)}s, ` +
      `answer ${formatNumber(l.answerSeconds)}s, total ${formatNumber(l.totalSeconds)}s`,
  );
  const u = q.tokenUsage;
  printLine(`tokens: prompt ${u.promptTokens}, completion ${u.completionTokens}, total ${u.totalTokens} (${q.generator})`);
  printLine(`query_id: ${q.queryId}`);
}

export function registerAskCommand(program: Command): void {
  program
    .command("ask")
    .description("ask a question about a processed document, or a collection (every document searched), with one strategy or variant")
    .argument("[doc]", "document id, or a collection id or name")
    .argument("[question]", "the question")
    .option(
      "-s, --strategy <name>",
      "strategy or variant the document was processed with (recursive@chunk_size=128; retrieval= and top_k= apply at search time)",
      "recursive",
    )
    .option("-k, --top-k <k>", "chunks to retrieve", parseInteger("--top-k"))
    .option("--show <query_id>", "print a stored query instead of asking")
    .option("--json", "print only JSON on stdout")
    .action(
      async (docArg: string | undefined, questionArg: string | undefined, options: { strategy: string; topK?: number; show?: string }, command: Command) => {
        const json = command.optsWithGlobals<GlobalOptions>().json;
        if (options.show) {
          if (docArg) throw new ValidationError("--show takes a query id and no other arguments");
          await withChunkeval(command, async (app) => {
            const q = await app.getQuery(options.show!);
            if (json) printJson(q);
            else printQuery(q);
          });
          return;
        }
        const documentId = await requireArgument(docArg, "doc", "Document id:");
        const question = await requireArgument(questionArg, "question", "Question:");
        await withChunkeval(command, async (app) => {
          // A misspelt strategy is bad usage (exit 2) naming the valid ones, as for bench and process.
          await app.planBench({ strategies: options.strategy });
          const q = await app.ask({ documentId, strategy: options.strategy, question, topK: options.topK });
          if (json) printJson(q);
          else printQuery(q);
        });
      },
    );
}
