// Which queue a process runs its background jobs on: the store's shared queue when it has one
// (PostgreSQL: every process and replica takes jobs from it, so a job outlives the process that
// queued it), else an in-process runner over the jobs table (SQLite).
import { DEFAULT_JOB_LEASE_MS, type JobHandlers, type JobQueue, type JobQueueOptions } from "../../domain/ports/job-queue.js";
import type { JobsRepo } from "../../domain/ports/jobs.js";
import type { Owner } from "../../domain/ports/owner.js";
import { InProcessJobQueue } from "./in-process-job-queue.js";
import { JobRunner } from "./jobs.js";

export interface JobQueueDeps {
  jobs: JobsRepo;
  owner: Owner;
  /** Jobs at once in this process (`max_background_jobs`). */
  concurrency: number;
  documentExists: (documentId: string) => Promise<boolean>;
  /** The store's shared queue, when it has one. */
  openShared?: (handlers: JobHandlers, options: JobQueueOptions) => Promise<JobQueue>;
  /** What runs beside every queue made (the /v1 ingestion sweep). */
  around: (queue: JobQueue) => JobQueue;
}

export function jobQueues(deps: JobQueueDeps) {
  return {
    /** A queue that runs (or, with `consume: false`, only enqueues) jobs with these handlers. */
    async create(handlers: JobHandlers, options: Partial<JobQueueOptions> = {}): Promise<JobQueue> {
      const settings = { consume: true, concurrency: deps.concurrency, leaseMs: DEFAULT_JOB_LEASE_MS, ...options };
      if (deps.openShared) return deps.around(await deps.openShared(handlers, settings));
      // Swept too: a predecessor killed in a container had this process's PID, so only the deadline tells its ingestions abandoned.
      return deps.around(new InProcessJobQueue(await JobRunner.start(deps.jobs, settings.concurrency, deps.owner, deps.documentExists), handlers));
    },
    /** Cancels a deleted document's jobs on the shared queue (the in-process runner cancels its own). */
    async cancelForDocument(documentId: string): Promise<void> {
      if (!deps.openShared) return;
      const queue = await deps.openShared({}, { consume: false, concurrency: 1, leaseMs: DEFAULT_JOB_LEASE_MS });
      try {
        await queue.cancelForDocument(documentId);
      } finally {
        await queue.shutdown();
      }
    },
  };
}
