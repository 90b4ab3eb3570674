import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.js";
import { jobHandlers } from "../job-handlers.js";
import type { Chunkeval } from "../../api/index.js";
import { loadTokenizer } from "../../api/operations.js";

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Finishes in-flight requests, stops background jobs (marked failed), closes the stores. */
  close(): Promise<void>;
}

/** Starts the evaluation API on host:port (127.0.0.1 unless told otherwise). */
export async function startServer(chunkeval: Chunkeval, options: { host: string; port: number; logger?: boolean; runJobs?: boolean }): Promise<RunningServer> {
  // Before the first request or job (text/tokens.ts).
  loadTokenizer();
  // runJobs false (serve --no-jobs, PostgreSQL only): jobs are enqueued here and run by workers.
  const jobs = await chunkeval.createJobQueue(jobHandlers(chunkeval), { consume: options.runJobs ?? true });
  await chunkeval.recoverIngestions();
  const app = await buildApp({ chunkeval, jobs }, { logger: options.logger });
  // Generous but bounded: a synchronous benchmark can take minutes; idle sockets cannot linger.
  app.server.requestTimeout = 15 * 60 * 1000;
  app.server.keepAliveTimeout = 5000;
  const address = await app.listen({ host: options.host, port: options.port }).catch(async (error: unknown) => {
    // The port was taken (or refused): what started for this server stops, so the caller may try another port.
    await app.close().catch(() => undefined);
    await jobs.shutdown();
    throw error;
  });
  let closing: Promise<void> | undefined;
  return {
    app,
    url: address,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await jobs.shutdown();
        await chunkeval.close();
      })()),
  };
}
