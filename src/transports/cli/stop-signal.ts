import { cliIo } from "./io.js";
/** Waits for SIGINT or SIGTERM, says so on stderr, runs `close`, then resolves (a long-running command's end). */
export function closeOnStopSignal(close: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      cliIo().stderr.write(`chunkeval: ${signal}, shutting down\n`);
      close().then(resolve, resolve);
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
}
