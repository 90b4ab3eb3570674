import { CancelledError, describeError, NotFoundError } from "../errors.js";
import { newId, nowTimestamp } from "../domain/ids.js";
import type { ProgressEvent } from "../domain/types.js";
import type { JobRecord, JobsRepo } from "../stores/sqlite/jobs-repo.js";

export type { JobRecord };

/** Job types (SPEC §2 names `benchmark`; `process` and `question_generation` are ours). */
export const JOB_TYPES = ["benchmark", "process", "question_generation"] as const;
export const JOB_STATUSES = ["pending", "running", "completed", "failed"] as const;

export const RESTART_ERROR = "interrupted: the server restarted before this job finished";
export const SHUTDOWN_ERROR = "interrupted: the server shut down before this job finished";

export type JobTask = (options: { signal: AbortSignal; onProgress: (e: ProgressEvent) => void }) => Promise<unknown>;

/**
 * Runs background work inside this process with at most `maxConcurrent` jobs at once; the
 * others wait as `pending`. Every state change is written to the job table, so a job can be
 * polled; what was unfinished when the process stopped is marked failed on the next start.
 */
export class JobRunner {
  private readonly queue: Array<{ id: string; task: JobTask }> = [];
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private closed = false;

  constructor(
    private readonly jobs: JobsRepo,
    private readonly maxConcurrent: number,
  ) {
    jobs.failUnfinished(RESTART_ERROR, nowTimestamp());
  }

  /** Records a pending job and starts it when a slot is free; returns the job row. */
  enqueue(jobType: string, params: unknown, task: JobTask): JobRecord {
    const jobId = newId("job");
    this.jobs.insert({ jobId, jobType, params, createdAt: nowTimestamp() });
    this.queue.push({ id: jobId, task });
    this.pump();
    return this.jobs.get(jobId)!;
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.maxConcurrent && this.queue.length > 0) {
      const { id, task } = this.queue.shift()!;
      const controller = new AbortController();
      this.jobs.markRunning(id, nowTimestamp());
      const done = task({ signal: controller.signal, onProgress: (e) => this.jobs.setProgress(id, `${e.stage}: ${e.message}`) })
        .then(
          (result) => this.jobs.complete(id, result, nowTimestamp()),
          (error) => this.jobs.fail(id, error instanceof CancelledError ? SHUTDOWN_ERROR : describeError(error), nowTimestamp()),
        )
        .finally(() => {
          this.running.delete(id);
          this.pump();
        });
      this.running.set(id, { controller, done });
    }
  }

  get(id: string): JobRecord {
    const job = this.jobs.get(id);
    if (!job) throw new NotFoundError(`job not found: ${id}`);
    return job;
  }

  /** Stops taking work, cancels running jobs, waits for them, and marks the rest failed. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const inFlight = [...this.running.values()];
    for (const r of inFlight) r.controller.abort("shutdown");
    await Promise.all(inFlight.map((r) => r.done));
    this.queue.length = 0;
    this.jobs.failUnfinished(SHUTDOWN_ERROR, nowTimestamp());
  }
}

export function listJobs(jobs: JobsRepo, filter: { jobType?: string; status?: string }, page: { offset: number; limit: number }) {
  return { ...jobs.list(filter, page.offset, page.limit), offset: page.offset, limit: page.limit };
}

/** A job as the API shows it (SPEC §2 Job): result only when completed, error only when failed. */
export function presentJob(job: JobRecord) {
  return {
    jobId: job.jobId,
    jobType: job.jobType,
    status: job.status,
    pollUrl: `/jobs/${job.jobId}`,
    ...(job.status === "completed" ? { result: job.result } : {}),
    ...(job.status === "failed" ? { error: job.error } : {}),
    progress: job.progress,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}
