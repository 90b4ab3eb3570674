import { CommanderError } from "commander";
import { ChunkevalError, ExitCode } from "../../errors.js";
import { firstStepsGuide } from "./guide.js";
import { cliIo, withCliIo, type CliIo } from "./io.js";
import { buildProgram } from "./program.js";
import { printJsonEvent, printNote } from "./output.js";

/**
 * Runs the program on `argv` (node's: the first two entries are node and the script) and turns
 * any error into one line on stderr and an exit code (docs/cli.md "Exit codes"). `io` is the process's
 * streams and environment unless a caller (a test running the CLI in process) gives its own.
 * Nothing below this calls process.exit, but for a second Ctrl-C during a bench (interrupt.ts),
 * which is asked to stop at once.
 */
export function main(argv: string[], io?: CliIo): Promise<number> {
  return withCliIo(io, async () => {
    const { stdout, stderr } = cliIo();
    if (argv.length <= 2 && stdout.isTTY) {
      stdout.write(firstStepsGuide());
      return ExitCode.ok;
    }
    const program = buildProgram();
    try {
      await program.parseAsync(argv);
      return cliIo().exitCode ?? ExitCode.ok;
    } catch (error) {
      if (error instanceof CommanderError) {
        // Help and version output are successes; every other commander error is bad usage.
        return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
      }
      if (error instanceof ChunkevalError) {
        if (cliIo().notes === "json") printJsonEvent({ event: "error", code: error.code, message: error.message, exit_code: error.exitCode });
        else printNote(`chunkeval: error: ${error.message}`);
        return error.exitCode;
      }
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      if (cliIo().notes === "json") printJsonEvent({ event: "error", code: "unexpected", message: detail, exit_code: ExitCode.failed });
      else stderr.write(`chunkeval: unexpected error: ${detail}\n`);
      return ExitCode.failed;
    }
  });
}
