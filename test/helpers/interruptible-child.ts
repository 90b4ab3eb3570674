/**
 * A process that runs work through the CLI's `interruptible` and prints what happens on stdout:
 * "working" when it starts, "aborted" when its signal fires, then the result and the SIGINT
 * listeners left. The work is one step of WORK_MS that does not heed its signal until it ends,
 * like a step under way that the first Ctrl-C must wait for.
 */
import { interruptible } from "../../src/transports/cli/interrupt.js";
import { cliIo } from "../../src/transports/cli/io.js";

// NOTES=json: as under `--progress json`, every line on stderr is a JSON object.
if (process.env.NOTES === "json") cliIo().notes = "json";

const result = await interruptible((signal) => {
  signal.addEventListener("abort", () => process.stdout.write("aborted\n"));
  process.stdout.write("working\n");
  // At the end of its step it heeds the signal, as bench's steps do.
  return new Promise<string>((resolve, reject) =>
    setTimeout(() => (signal.aborted ? reject(new Error("cancelled")) : resolve("done")), Number(process.env.WORK_MS)),
  );
});
process.stdout.write(`${JSON.stringify(result)} listeners=${process.listenerCount("SIGINT")}\n`);
