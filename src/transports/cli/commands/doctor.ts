import type { Command } from "commander";
import { ExitCode } from "../../../errors.js";
import { withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine } from "../output.js";

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description("check that every committed chunk has its vector and every vector a committed chunk (exit 1 when not)")
    .option("--repair", "remove orphan vectors and mark strategies with missing vectors for re-processing")
    .option("--json", "print only JSON on stdout")
    .action(async (options: { repair?: boolean }, command: Command) => {
      const report = await withChunkeval(command, (app) => app.doctor({ repair: options.repair }));
      if (command.optsWithGlobals<GlobalOptions>().json) printJson(report);
      else {
        const { strategies, chunks, vectors } = report.checked;
        printLine(`checked ${strategies} processed strategies, ${chunks} committed chunks, ${vectors} vectors`);
        if (report.inFlight > 0) printLine(`${report.inFlight} generation(s) are being written by another running process (not a fault)`);
        for (const line of report.repaired) printLine(`repaired: ${line}`);
        for (const f of report.findings) printLine(`problem: ${f.message}`);
        printLine(report.consistent ? "consistent" : "NOT consistent (run: chunkeval doctor --repair)");
      }
      if (!report.consistent) process.exitCode = ExitCode.failed;
    });
}
