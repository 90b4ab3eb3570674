import { writeOutputFile } from "../output.js";
import { refuseUnwritableOutputs } from "../output-clash.js";
import { writeFile } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import { ValidationError } from "../../../errors.js";
import { addPagingOptions, checkPage, withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine, printNote, printTable } from "../output.js";
import { nameWithId } from "../../../domain/filenames.js";
import { requireArgument } from "../prompts.js";
import { toWire } from "../../serialize.js";
import { cliIo } from "../io.js";
import type { Chunkeval, ReportFormat, ReportOptions, ReportView } from "../../../api/index.js";

/** The report formats, by the extension of the file they are written to. */
const REPORT_EXTENSIONS: Record<string, ReportFormat> = { ".html": "html", ".md": "md", ".json": "json" };

/** The format a report file's extension names; any other extension is a usage error naming the allowed ones (not HTML under another name). */
export function reportFormatOf(out: string): ReportFormat {
  const format = REPORT_EXTENSIONS[extname(out).toLowerCase()];
  if (!format) throw new ValidationError(`--out ${out}: a report file must end in ${Object.keys(REPORT_EXTENSIONS).join(", ")}`);
  return format;
}

/** Renders an experiment in a format and writes it to a file (`written` says whether it could be), or returns it when no file is given. */
export async function writeReport(
  app: Chunkeval,
  id: string,
  options: { format: ReportFormat; view: ReportView; out?: string; baselineId?: string; baseline?: ReportOptions["baseline"]; gates?: ReportOptions["gates"] },
): Promise<{ text: string; written: boolean }> {
  refuseUnwritableOutputs([{ flag: "--out", path: options.out }]);
  const { body } = await app.renderReport(id, options);
  const text = typeof body === "string" ? body : JSON.stringify(toWire(body), null, 2) + "\n";
  const out = options.out;
  const written =
    out !== undefined && (await writeOutputFile("--out", out, () => writeFile(out, text), `; write it elsewhere with chunkeval report ${id} --out FILE`));
  return { text, written };
}

export function registerReportCommands(program: Command): void {
  program
    .command("report")
    .description("render a stored experiment as an HTML report (managerial or technical), Markdown or JSON with per-question results")
    .argument("[experiment_id]", "experiment id")
    .option("--view <view>", "managerial or technical", "managerial")
    .option("--format <format>", "html, json or md (default: the --out file's extension, else html)")
    .option("--out <file>", "write to this file instead of stdout (.html, .md or .json)")
    .option("--baseline <experiment_id>", "show each metric's change against an earlier experiment")
    .action(async (idArg: string | undefined, options: { view: string; format?: string; out?: string; baseline?: string }, command: Command) => {
      const id = await requireArgument(idArg, "experiment_id", "Experiment id:");
      if (!["managerial", "technical"].includes(options.view)) throw new ValidationError(`--view must be managerial or technical, got "${options.view}"`);
      const byName = options.out === undefined ? undefined : reportFormatOf(options.out);
      const format = options.format ?? byName ?? "html";
      if (!["html", "json", "md"].includes(format)) throw new ValidationError(`--format must be html, json or md, got "${format}"`);
      if (byName && format !== byName)
        throw new ValidationError(`--format ${format} does not match --out ${options.out}: name the file .${format}, or leave --format out`);
      await withChunkeval(command, async (app) => {
        const { text, written } = await writeReport(app, id, {
          format: format as ReportFormat,
          view: options.view as "managerial" | "technical",
          out: options.out,
          baselineId: options.baseline,
        });
        if (written) printNote(`wrote ${options.out}`);
        else cliIo().stdout.write(text);
      });
    });

  addPagingOptions(program.command("experiments").description("list stored experiments, newest first"), "experiments")
    .option("--json", "print only JSON on stdout")
    .action(async (options: { offset: number; limit: number }, command: Command) => {
      await withChunkeval(command, async (app) => {
        const page = await app.listExperiments(checkPage(options));
        if (command.optsWithGlobals<GlobalOptions>().json) return printJson(page);
        if (page.total === 0) return printLine("No experiments yet. Run one with: chunkeval bench DOC --questions FILE");
        if (page.items.length === 0) return printLine(`${page.total} experiments; none at offset ${page.offset}`);
        printTable(
          ["id", "document", "strategies", "created_at"],
          page.items.map((e) => [e.id, nameWithId(e.documentName, e.documentId), e.strategiesUsed.join(", "), e.createdAt]),
        );
        printLine(`${page.items.length} of ${page.total} shown (offset ${page.offset})`);
      });
    });
}
