import { existsSync } from "node:fs";
import type { Command } from "commander";
import { DEFAULTS } from "../../../config/defaults.js";
import { loadCliConfig, parseInteger } from "../context.js";
import { closeOnStopSignal } from "../stop-signal.js";
import { ValidationError } from "../../../errors.js";

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
    .addHelpText(
      "after",
      "\nPOST /benchmarks reads questions_file from questions_dir (default ./questions in the folder serve starts in;\n" +
        "CHUNKEVAL_QUESTIONS_DIR or --config to change it): serve prints that folder when it starts, GET /readyz shows it.",
    )
    .action(async (options: { host: string; port: number; log?: boolean; jobs: boolean }, command: Command) => {
      const { createChunkeval } = await import("../../../chunkeval.js");
      const { startServer } = await import("../../http/server.js");
      const { config } = loadCliConfig(command);
      const chunkeval = await createChunkeval(config);
      if (!options.jobs && !chunkeval.sharedJobQueue()) {
        await chunkeval.close();
        throw new ValidationError("--no-jobs needs a PostgreSQL metadata_store_uri: on SQLite, jobs run only in the server that queued them");
      }
      const server = await startServer(chunkeval, { host: options.host, port: options.port, logger: options.log, runJobs: options.jobs });
      process.stderr.write(`chunkeval serving on ${server.url} (docs: ${server.url}/docs)\n${questionsDirLine(config.questionsDir)}\n`);
      await closeOnStopSignal(() => server.close());
    });
}
