import type { Command } from "commander";
import { describeConfig } from "../../../config/load.js";
import { loadCliConfig, type GlobalOptions } from "../context.js";
import { printJson, printLine, printTable } from "../output.js";

export function registerInfoCommands(program: Command): void {
  program
    .command("strategies")
    .description("list the chunking strategies with their parameters and defaults")
    .option("--json", "print only JSON on stdout")
    .action(async (_options, command: Command) => {
      const { availableStrategies } = await import("../../../api/strategies.js");
      const all = await availableStrategies(loadCliConfig(command).config.strategyModules);
      if (command.optsWithGlobals<GlobalOptions>().json) return printJson({ strategies: all });
      for (const s of all) {
        printLine(`${s.name}: ${s.description}`);
        for (const p of s.parameters) printLine(`    ${p.name} = ${p.default}  (${p.description})`);
      }
    });

  program
    .command("config")
    .description("print the configuration in effect and where each value comes from (secrets masked)")
    .option("--json", "print only JSON on stdout")
    .action(async (_options, command: Command) => {
      const loaded = loadCliConfig(command);
      const rows = describeConfig(loaded);
      if (command.optsWithGlobals<GlobalOptions>().json) return printJson({ settings: rows, warnings: loaded.warnings });
      printTable(
        ["key", "value", "source", "environment variable"],
        rows.map((r) => [r.key, r.value, r.source, r.env]),
      );
    });
}
