import { CommanderError } from "commander";
import { ChunkevalError, ExitCode } from "../../errors.js";
import { firstStepsGuide } from "./guide.js";
import { buildProgram } from "./program.js";
import { showWarningsInOurWords } from "./warnings.js";
import { printNote } from "./output.js";

/**
 * The process edge: runs the program and turns any error into one line on stderr and an
 * exit code (README "Exit codes"). Nothing below this calls process.exit, but for a second
 * Ctrl-C during a bench (interrupt.ts), which is asked to stop at once.
 */
export async function main(argv: string[]): Promise<number> {
  if (argv.length <= 2 && process.stdout.isTTY) {
    process.stdout.write(firstStepsGuide());
    return ExitCode.ok;
  }
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version output are successes; every other commander error is bad usage.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof ChunkevalError) {
      printNote(`chunkeval: error: ${error.message}`);
      return error.exitCode;
    }
    process.stderr.write(`chunkeval: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return ExitCode.failed;
  }
}

// A reader that stops early (`chunkeval --help | head`) closes the pipe: that is the reader's
// choice, not a failure worth a stack trace. Output past that point is dropped and the command
// runs to its end (never cut off midway through a write), exiting with its own code.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

// Only our own words on stderr (README "Commands"): process warnings as chunkeval's lines.
showWarningsInOurWords();

process.exitCode = await main(process.argv);
