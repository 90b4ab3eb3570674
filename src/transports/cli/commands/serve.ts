import type { Command } from "commander";
import { DEFAULTS } from "../../../config/defaults.js";
import { loadCliConfig, parseInteger } from "../context.js";

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the REST evaluation API (OpenAPI at /openapi.json, docs at /docs)")
    .option("--host <host>", "address to bind", DEFAULTS.host)
    .option("--port <port>", "port to listen on (0 = any free port)", parseInteger("--port"), DEFAULTS.port)
    .option("--log", "log every request as JSON on stderr")
    .action(async (options: { host: string; port: number; log?: boolean }, command: Command) => {
      const { createChunkeval } = await import("../../../chunkeval.js");
      const { startServer } = await import("../../http/server.js");
      const chunkeval = await createChunkeval(loadCliConfig(command).config);
      const server = await startServer(chunkeval, { host: options.host, port: options.port, logger: options.log });
      process.stderr.write(`chunkeval serving on ${server.url} (docs: ${server.url}/docs)\n`);
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          process.stderr.write(`chunkeval: ${signal}, shutting down\n`);
          server.close().then(resolve, resolve);
        };
        process.once("SIGINT", () => stop("SIGINT"));
        process.once("SIGTERM", () => stop("SIGTERM"));
      });
    });
}
