import type { Command } from "commander";
import { ValidationError } from "../../../errors.js";
import { loadCliConfig, parseInteger } from "../context.js";
import { closeOnStopSignal } from "../stop-signal.js";
import { cliIo } from "../io.js";

export function registerWorkerCommand(program: Command): void {
  program
    .command("worker")
    .description("run background jobs and /v1 ingestions from the shared PostgreSQL job queue, without serving HTTP")
    .option("--concurrency <n>", "run at most this many jobs at once (default: max_background_jobs)", parseInteger("--concurrency"))
    .option("--lease-seconds <n>", "a claimed job is taken over by another process when not renewed for this long", parseInteger("--lease-seconds"), 30)
    .addHelpText(
      "after",
      "\nNeeds metadata_store_uri = postgres://… (SQLite jobs run inside the server that queued them). Runs until SIGINT or SIGTERM;\n" +
        "jobs running then go back to the queue for another process. A job whose worker was killed is taken over after its lease,\n" +
        "and failed with a clear error once its workers stopped 3 times. A /v1 upload accepted by any serve is ingested by whichever\n" +
        "process claims it, reading the original from PostgreSQL; every worker also ends /v1 ingestions whose deadline passed unfinished.",
    )
    .action(async (options: { concurrency?: number; leaseSeconds: number }, command: Command) => {
      const { createChunkeval } = await import("../../../api/create.js");
      const { jobHandlers } = await import("../../job-handlers.js");
      const { config } = loadCliConfig(command);
      if (options.concurrency === 0) throw new ValidationError("--concurrency must be at least 1");
      if (options.leaseSeconds === 0) throw new ValidationError("--lease-seconds must be at least 1");
      const chunkeval = await createChunkeval(config);
      if (!chunkeval.sharedJobQueue()) {
        await chunkeval.close();
        throw new ValidationError(
          "chunkeval worker needs a PostgreSQL metadata_store_uri (postgres://…): on SQLite, jobs run inside the server that queued them",
        );
      }
      const concurrency = options.concurrency ?? config.maxBackgroundJobs;
      // Before the first lease is taken (text/tokens.ts): its tables would otherwise load between two renewals.
      const { loadTokenizer } = await import("../../../api/operations.js");
      loadTokenizer();
      const queue = await chunkeval.createJobQueue(jobHandlers(chunkeval), { consume: true, concurrency, leaseMs: options.leaseSeconds * 1000 });
      cliIo().stderr.write(`chunkeval worker running jobs (concurrency ${concurrency}, lease ${options.leaseSeconds} s)\n`);
      await closeOnStopSignal(async () => {
        await queue.shutdown();
        await chunkeval.close();
      });
    });
}
