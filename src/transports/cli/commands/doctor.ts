import type { Command } from "commander";
import { ExitCode } from "../../../errors.js";
import { withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine } from "../output.js";
import { cliIo } from "../io.js";

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description("check that every committed chunk has its vector, every vector a committed chunk, and every stored original a row (exit 1 when not)")
    .option("--repair", "remove orphan vectors and originals no row names (older than an hour), and mark strategies with missing vectors for re-processing")
    .option("--json", "print only JSON on stdout")
    .action(async (options: { repair?: boolean }, command: Command) => {
      const report = await withChunkeval(command, (app) => app.doctor({ repair: options.repair }));
      if (command.optsWithGlobals<GlobalOptions>().json) printJson(report);
      else {
        const { strategies, chunks, vectors, originals } = report.checked;
        printLine(`checked ${strategies} processed strategies, ${chunks} committed chunks, ${vectors} vectors, ${originals} stored originals`);
        if (report.inFlight > 0) printLine(`${report.inFlight} generation(s) or original(s) are being written by another running process (not a fault)`);
        for (const line of report.repaired) printLine(`repaired: ${line}`);
        for (const f of report.findings) printLine(`problem: ${f.message}`);
        for (const o of report.orphanOriginals) printLine(`problem: ${o.location}: an original no document or version names (stored ${o.ageSeconds} s ago)`);
        if (report.originalsMismatch) printLine(`problem: ${report.originalsMismatch}`);
        printLine(report.consistent ? "consistent" : "NOT consistent (run: chunkeval doctor --repair)");
      }
      if (!report.consistent) cliIo().exitCode = ExitCode.failed;
    });
}
