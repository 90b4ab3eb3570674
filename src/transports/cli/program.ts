import { Command, Option } from "commander";
import { PROGRESS_MODES } from "./progress.js";
import { cliIo } from "./io.js";
import { outputWidth } from "./layout.js";
import { registerAskCommand } from "./commands/ask.js";
import { registerDocumentCommands } from "./commands/documents.js";
import { registerInfoCommands } from "./commands/info.js";
import { registerProcessCommand } from "./commands/process.js";
import { registerBenchCommand } from "./commands/bench.js";
import { registerQuestionsCommand } from "./commands/questions.js";
import { registerReportCommands } from "./commands/report.js";
import { registerJobsCommand } from "./commands/jobs.js";
import { registerServeCommand } from "./commands/serve.js";
import { registerUiCommand } from "./commands/ui.js";
import { registerWorkerCommand } from "./commands/worker.js";
import { registerTenantCommands } from "./commands/tenants.js";
import { registerDoctorCommand } from "./commands/doctor.js";
import { registerCollectionsCommand } from "./commands/collections.js";
import { registerCacheCommand } from "./commands/cache.js";
import { CHUNKEVAL_VERSION, SUPPORTED_FORMATS_TEXT } from "../../api/about.js";

export function buildProgram(): Command {
  const program = new Command("chunkeval")
    .description(`Find the chunking strategy that gives the best retrieval-augmented answers for your documents (${SUPPORTED_FORMATS_TEXT}).`)
    .version(CHUNKEVAL_VERSION)
    .option("--data-dir <dir>", "data directory (env CHUNKEVAL_DATA_DIR, default ./.chunkeval)")
    .option("--config <file>", "configuration file (default chunkeval.config.{json,yaml} in the current folder)")
    .option("--embedder <spec>", "use | hash | hf:<model-id> | openai:<model> (env CHUNKEVAL_EMBEDDER)")
    .option("--generator <spec>", "extractive | openai:<model> (env CHUNKEVAL_GENERATOR)")
    .option(
      "--strategy-module <file>",
      "a JavaScript module that adds a chunking strategy; repeatable (env CHUNKEVAL_STRATEGY_MODULES, config strategy_modules)",
      (file: string, previous: string[]) => [...previous, file],
      [] as string[],
    )
    .option("-q, --quiet", "no progress output on stderr")
    .addOption(
      new Option(
        "--progress <mode>",
        "progress on stderr: auto (a spinner in a terminal, lines otherwise), " +
          "lines (a line per stage and strategy at most every 5 s, with counts and an ETA), json (one JSON object per event)",
      )
        .choices(PROGRESS_MODES)
        .default("auto"),
    )
    // A usage error is one line in our words and a pointer to the help, not 60 lines of it.
    .configureOutput({
      outputError: (text, write) => write(text.startsWith("error: ") ? `chunkeval: ${text}` : text),
      // The run's streams (the process's, or a test's collectors when it runs the CLI in process).
      writeOut: (text) => cliIo().stdout.write(text),
      writeErr: (text) => cliIo().stderr.write(text),
      getOutHelpWidth: () => outputWidth(cliIo().stdout),
      getErrHelpWidth: () => outputWidth(cliIo().stderr),
    })
    .exitOverride()
    // Under --progress json every line on stderr is a JSON object, notes and errors included (output.ts printNote).
    .hook("preAction", (_program, action) => {
      if (action.optsWithGlobals<{ progress?: string }>().progress === "json") cliIo().notes = "json";
    })
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 the operation failed, 2 bad usage or invalid input, 3 not found, 4 a gate failed, 130 interrupted (Ctrl-C).\n" +
        "Run `chunkeval <command> --help` for a command's options.",
    );
  registerDocumentCommands(program);
  registerProcessCommand(program);
  registerAskCommand(program);
  registerCollectionsCommand(program);
  registerBenchCommand(program);
  registerQuestionsCommand(program);
  registerReportCommands(program);
  registerJobsCommand(program);
  registerServeCommand(program);
  registerUiCommand(program);
  registerWorkerCommand(program);
  registerTenantCommands(program);
  registerDoctorCommand(program);
  registerCacheCommand(program);
  registerInfoCommands(program);
  const exitOverride = (command: Command): void => {
    command.exitOverride();
    command.showHelpAfterError(`(see ${commandPath(command)} --help)`);
    command.commands.forEach(exitOverride);
  };
  exitOverride(program);
  return program;
}

/** `chunkeval questions generate`: a command's name after its parents'. */
function commandPath(command: Command): string {
  return command.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name();
}
