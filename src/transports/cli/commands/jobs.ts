import type { Command } from "commander";
import { AuthenticationError, ExitCode, NotFoundError, ProviderError } from "../../../errors.js";
import { addPagingOptions, checkPage, loadCliConfig, withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine, printTable } from "../output.js";
import { toWire } from "../../serialize.js";
import { cliIo } from "../io.js";
import { EVALUATION_JOB_TYPES, JOB_STATUSES, presentJob } from "../../../api/jobs.js";

type WireJob = {
  job_id: string;
  job_type: string;
  about?: string | null;
  status: string;
  error?: string;
  created_at: string;
  finished_at: string | null;
  progress: string | null;
};

/**
 * Reads jobs from a running server's API, sending CHUNKEVAL_API_KEY (environment only, like
 * the server's) when it is set.
 */
async function fetchJson(command: Command, server: string, path: string): Promise<any> {
  const apiKey = loadCliConfig(command).config.apiKey;
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  const response = await fetch(new URL(path, server), { headers }).catch((error: Error) => {
    throw new ProviderError(`cannot reach ${server}: ${error.message}`);
  });
  const body = (await response.json().catch(() => ({}))) as { detail?: string };
  if (response.status === 404) throw new NotFoundError(body.detail ?? `not found: ${path}`);
  if (response.status === 401)
    throw new AuthenticationError(`${server} refused the request: ${body.detail ?? "unauthorized"} (set CHUNKEVAL_API_KEY to the server's key)`);
  if (!response.ok) throw new ProviderError(`${server} answered ${response.status}: ${body.detail ?? ""}`);
  return body;
}

async function readJob(command: Command, id: string, server?: string): Promise<WireJob> {
  if (server) return fetchJson(command, server, `/jobs/${encodeURIComponent(id)}`);
  return withChunkeval(command, async (app) => toWire(presentJob(await app.getJob(id))) as WireJob);
}

export function registerJobsCommand(program: Command): void {
  const jobs = program.command("jobs").description("list, show and wait for background jobs (local job table, or --server URL)");

  addPagingOptions(jobs.command("list").description("list jobs, newest first"), "jobs")
    .option("--status <status>", `filter: ${JOB_STATUSES.join(", ")}`)
    .option("--type <type>", `filter: ${EVALUATION_JOB_TYPES.join(", ")}`)
    .option("--server <url>", "read from a running chunkeval serve")
    .option("--json", "print only JSON on stdout")
    .action(async (options: { offset: number; limit: number; status?: string; type?: string; server?: string }, command: Command) => {
      checkPage(options);
      let page: { items: WireJob[]; total: number; offset: number; limit: number };
      if (options.server) {
        const qs = new URLSearchParams({
          offset: String(options.offset),
          limit: String(options.limit),
          ...(options.status ? { status: options.status } : {}),
          ...(options.type ? { job_type: options.type } : {}),
        });
        page = await fetchJson(command, options.server, `/jobs?${qs}`);
      } else {
        page = await withChunkeval(command, async (app) => {
          const p = await app.listJobs({ jobType: options.type, status: options.status }, options);
          return toWire({ ...p, items: p.items.map(presentJob) }) as typeof page;
        });
      }
      if (command.optsWithGlobals<GlobalOptions>().json) return printJson(page);
      if (page.total === 0) return printLine("No jobs.");
      if (page.items.length === 0) return printLine(`${page.total} jobs; none at offset ${page.offset}`);
      printTable(
        ["job_id", "type", "about", "status", "created_at", "finished_at", "error / progress"],
        page.items.map((j) => [j.job_id, j.job_type, j.about ?? "-", j.status, j.created_at, j.finished_at ?? "-", j.error ?? j.progress ?? ""]),
      );
      printLine(`${page.items.length} of ${page.total} shown (offset ${page.offset})`);
    });

  jobs
    .command("show")
    .description("print one job")
    .argument("<job_id>", "job id")
    .option("--server <url>", "read from a running chunkeval serve")
    .option("--json", "print only JSON on stdout")
    .action(async (id: string, options: { server?: string }, command: Command) => {
      const job = await readJob(command, id, options.server);
      printJson(job);
    });

  jobs
    .command("wait")
    .description("poll a job until it finishes; exit 0 when completed, 1 when failed")
    .argument("<job_id>", "job id")
    .option("--server <url>", "read from a running chunkeval serve")
    .option("--interval <ms>", "polling interval in milliseconds", "500")
    .option("--json", "print only JSON on stdout")
    .action(async (id: string, options: { server?: string; interval: string }, command: Command) => {
      let job = await readJob(command, id, options.server);
      while (job.status === "pending" || job.status === "running") {
        await new Promise((r) => setTimeout(r, Math.max(50, Number(options.interval) || 500)));
        job = await readJob(command, id, options.server);
      }
      if (command.optsWithGlobals<GlobalOptions>().json) printJson(job);
      else printLine(`${job.job_id}: ${job.status}${job.error ? `: ${job.error}` : ""}`);
      cliIo().exitCode = job.status === "completed" ? ExitCode.ok : ExitCode.failed;
    });
}
