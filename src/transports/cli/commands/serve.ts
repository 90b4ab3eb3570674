import { existsSync } from "node:fs";
import type { Command } from "commander";
import { DEFAULTS } from "../../../config/defaults.js";
import { loadCliConfig, parseInteger } from "../context.js";
import { closeOnStopSignal } from "../stop-signal.js";
import { ValidationError } from "../../../errors.js";
import { isLoopback } from "../../http/loopback.js";
import { cliIo } from "../io.js";

/** Where POST /benchmarks reads `questions_file` from (questions_dir, default ./questions where serve started), and whether it is there. */
function questionsDirLine(dir: string): string {
  const where = `questions_file is read from ${dir}`;
  return existsSync(dir) ? where : `${where}, which does not exist: create it, set questions_dir (CHUNKEVAL_QUESTIONS_DIR), or send questions inline`;
}

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the REST evaluation API (OpenAPI at /openapi.json, docs at /docs)")
    .option("--host <host>", "address to bind", DEFAULTS.host)
    .option("--port <port>", "port to listen on (0 = any free port)", parseInteger("--port"), DEFAULTS.port)
    .option("--log", "log every request as JSON on stderr")
    .option("--no-jobs", "PostgreSQL store only: queue background jobs and /v1 ingestions but leave running them to `chunkeval worker` processes")
    .option(
      "--insecure-no-api-key",
      "serve on an address other than loopback without CHUNKEVAL_API_KEY: anyone who reaches it reads every document and spends the provider keys",
    )
    .addHelpText(
      "after",
      "\nPOST /benchmarks reads questions_file from questions_dir (default ./questions in the folder serve starts in;\n" +
        "CHUNKEVAL_QUESTIONS_DIR or --config to change it): serve prints that folder when it starts, GET /readyz shows it.",
    )
    .action(async (options: { host: string; port: number; log?: boolean; jobs: boolean; insecureNoApiKey?: boolean }, command: Command) => {
      const { createChunkeval } = await import("../../../api/create.js");
      const { startServer } = await import("../../http/server.js");
      const { config } = loadCliConfig(command);
      if (!isLoopback(options.host) && !config.apiKey && !options.insecureNoApiKey) {
        throw new ValidationError(
          `--host ${options.host} serves the evaluation API beyond this machine without an API key: anyone who reaches it can read ` +
            "every document, run benchmarks and spend the configured provider keys. Set CHUNKEVAL_API_KEY, or pass " +
            "--insecure-no-api-key to serve it so anyway.",
        );
      }
      const chunkeval = await createChunkeval(config);
      if (!options.jobs && !chunkeval.sharedJobQueue()) {
        await chunkeval.close();
        throw new ValidationError("--no-jobs needs a PostgreSQL metadata_store_uri: on SQLite, jobs run only in the server that queued them");
      }
      const server = await startServer(chunkeval, { host: options.host, port: options.port, logger: options.log, runJobs: options.jobs });
      cliIo().stderr.write(
        `chunkeval serving on ${server.url} (docs: ${server.url}/docs, the browser UI: ${server.url}/ui/)\n${questionsDirLine(config.questionsDir)}\n`,
      );
      if (!isLoopback(options.host) && !config.apiKey) {
        cliIo().stderr.write("warning: --insecure-no-api-key: the evaluation API answers anyone who reaches this address, with no key\n");
      }
      await closeOnStopSignal(() => server.close());
    });
}
