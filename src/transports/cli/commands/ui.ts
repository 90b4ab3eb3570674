import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { loadCliConfig, parseInteger } from "../context.js";
import { closeOnStopSignal } from "../stop-signal.js";
import { cliIo } from "../io.js";

/** The program that opens a URL in the desktop's browser, per platform. */
function opener(url: string): [string, string[]] {
  if (process.platform === "darwin") return ["open", [url]];
  if (process.platform === "win32") return ["cmd", ["/c", "start", "", url]];
  return ["xdg-open", [url]];
}

/** Opens `url` in a browser, or says why it could not (the URL is printed either way). */
function openBrowser(url: string): void {
  const [command, args] = opener(url);
  const child = spawn(command, args, { detached: true, stdio: "ignore" });
  child.on("error", (error) => cliIo().stderr.write(`chunkeval: could not open a browser (${command}: ${error.message}): open ${url} yourself\n`));
  child.unref();
}

/**
 * The port `chunkeval ui` listened on last for this data directory (a file in it). The browser keeps
 * the question sets a person builds per origin, and the port is part of the origin: a new port at
 * every start would leave them behind.
 */
const uiPortFile = (dataDir: string) => join(dataDir, "ui-port");

function rememberedPort(dataDir: string): number | undefined {
  try {
    const port = Number(readFileSync(uiPortFile(dataDir), "utf8").trim());
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
  } catch {
    return undefined;
  }
}

export function registerUiCommand(program: Command): void {
  program
    .command("ui")
    .description("open chunkeval in the browser: documents, their text and structure, and several strategies' chunks side by side")
    .option(
      "--port <port>",
      "port to listen on (default: the port of the last start for this data directory when it is free, else any free port)",
      parseInteger("--port"),
    )
    .option("--open", "open the page in the desktop's browser too")
    .addHelpText(
      "after",
      "\nThe server binds 127.0.0.1 only and serves the page from the package: nothing is loaded from the network.\n" +
        "With CHUNKEVAL_API_KEY set the page asks for the key once. `chunkeval serve` serves the same page at /ui/.\n" +
        "The question sets you build are kept in this browser for the page's address: export them to keep them elsewhere.",
    )
    .action(async (options: { port?: number; open?: boolean }, command: Command) => {
      const { createChunkeval } = await import("../../../api/create.js");
      const { startServer } = await import("../../http/server.js");
      const { config } = loadCliConfig(command);
      const chunkeval = await createChunkeval(config);
      // Without --port, the port of the last start when it is free, else any free one (remembered for the next start).
      const remembered = options.port === undefined ? rememberedPort(config.dataDir) : undefined;
      let elsewhere = false;
      const server = await startServer(chunkeval, { host: "127.0.0.1", port: options.port ?? remembered ?? 0 }).catch((error: NodeJS.ErrnoException) => {
        if (options.port !== undefined || remembered === undefined || error.code !== "EADDRINUSE") throw error;
        elsewhere = true;
        return startServer(chunkeval, { host: "127.0.0.1", port: 0 });
      });
      // The remembered port stays on record when it was taken: the next start goes back to it (and to the sets kept for it).
      if (elsewhere) {
        cliIo().stderr.write(
          `chunkeval: port ${remembered}, this data directory's last, is taken: the question sets your browser keeps for that address ` +
            `are not on this one (stop what holds it and start again, or --port ${remembered})\n`,
        );
      } else if (options.port === undefined) writeFileSync(uiPortFile(config.dataDir), `${new URL(server.url).port}\n`);
      const url = `${server.url}/ui/`;
      cliIo().stdout.write(`${url}\n`);
      cliIo().stderr.write(`chunkeval UI on ${url} (the API's docs: ${server.url}/docs); Ctrl-C stops it\n`);
      if (options.open) openBrowser(url);
      await closeOnStopSignal(() => server.close());
    });
}
