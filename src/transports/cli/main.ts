// The process edge of the CLI (bin/chunkeval.js): runs the program on the process's arguments,
// streams and environment, and sets the process's exit code (the program itself: run.ts).
import { main } from "./run.js";
import { showWarningsInOurWords } from "./warnings.js";

// A reader that stops early (`chunkeval --help | head`) closes the pipe: that is the reader's
// choice, not a failure worth a stack trace. Output past that point is dropped and the command
// runs to its end (never cut off midway through a write), exiting with its own code.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

// Only our own words on stderr (docs/cli.md "Commands"): process warnings as chunkeval's lines.
showWarningsInOurWords();

process.exitCode = await main(process.argv);
