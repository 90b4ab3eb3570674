import { CancelledError, ConflictError, describeError, NotFoundError } from "../../errors.js";
import { newId, nowTimestamp } from "../../domain/ids.js";
import type { ProgressEvent } from "../../domain/types.js";
import type { Owner } from "../../domain/ports/owner.js";
import type { JobRecord, JobsRepo } from "../../domain/ports/jobs.js";
import { deletedDocumentReason, type JobDocument, type JobQueue } from "../../domain/ports/job-queue.js";
import { nameWithId } from "../../domain/filenames.js";

export type { JobRecord };

/**
 * Job types (SPEC §2 names `benchmark`; `process` and `question_generation` are ours;
 * `process_unit`: one (document, variant) of a background benchmark on the PostgreSQL queue;
 * `v1_ingestion`: a /v1 upload on the PostgreSQL queue).
 */
export const JOB_TYPES = ["benchmark", "process", "question_generation", "process_unit", "v1_ingestion"] as const;
/** The queue job type of a /v1 ingestion on a shared queue (PostgreSQL): any `serve` or `worker` runs it. */
export const V1_INGESTION_JOB = "v1_ingestion";
/**
 * Jobs of the multi-tenant ingestion surface: their parameters, results and errors name a
 * tenant's files, so the evaluation API (`/jobs`, which asks for no tenant key) never shows
 * them; a tenant polls its own at `/v1/ingestion-jobs/{id}`.
 */
const INGESTION_SURFACE_JOB_TYPES: readonly string[] = [V1_INGESTION_JOB];
/** The job types `/jobs` and `chunkeval jobs` list and filter by. */
export const EVALUATION_JOB_TYPES = JOB_TYPES.filter((t) => !INGESTION_SURFACE_JOB_TYPES.includes(t));
export const JOB_STATUSES = ["pending", "running", "completed", "failed"] as const;

export const RESTART_ERROR = "interrupted: the server running this job stopped before it finished";
export const SHUTDOWN_ERROR = "interrupted: the server shut down before this job finished";
/** The failure text of a job cancelled by a client (POST /jobs/{id}/cancel). */
export const CANCELLED_BY_REQUEST = "cancelled: stopped at a client's request";

/**
 * How often a runner tells other servers its jobs are alive (and fails the jobs of a server
 * that died meanwhile), and when silence means it is gone.
 */
export const JOB_HEARTBEAT_MS = 30_000;
export const JOB_STALE_MS = 10 * 60_000;
/** How often a runner looks for documents another process deleted under its jobs. */
export const DELETED_DOCUMENT_POLL_MS = 1000;

export type { JobDocument };

export type JobTask = (options: { signal: AbortSignal; onProgress: (e: ProgressEvent) => void }) => Promise<unknown>;

/**
 * Runs background work inside this process with at most `maxConcurrent` jobs at once; the
 * others wait as `pending`. Every state change is written to the job table, so a job can be
 * polled. Jobs belong to the runner that took them (its owner id, process id and heartbeat):
 * a starting runner marks failed only the unfinished jobs whose owner is gone, never those of
 * another live server on the same data directory; and a job's terminal status is final.
 */
export class JobRunner {
  private readonly queue: Array<{ id: string; task: JobTask; document?: JobDocument }> = [];
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void>; document?: JobDocument }>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly deletedDocumentPoll: NodeJS.Timeout;
  private closed = false;

  /**
   * A runner whose start has marked failed the unfinished jobs of owners that are gone.
   * `documentExists` lets the runner notice a document deleted by another process (a CLI `delete`) and cancel its jobs.
   */
  static async start(
    jobs: JobsRepo,
    maxConcurrent: number,
    owner: Owner,
    documentExists: (documentId: string) => Promise<boolean>,
    heartbeatMs = JOB_HEARTBEAT_MS,
  ): Promise<JobRunner> {
    await jobs.failAbandoned(owner, JOB_STALE_MS, RESTART_ERROR, nowTimestamp());
    return new JobRunner(jobs, maxConcurrent, owner, documentExists, heartbeatMs);
  }

  private constructor(
    private readonly jobs: JobsRepo,
    private readonly maxConcurrent: number,
    private readonly owner: Owner,
    documentExists: (documentId: string) => Promise<boolean>,
    heartbeatMs: number,
  ) {
    this.heartbeat = setInterval(() => {
      void (async () => {
        await jobs.heartbeat(owner);
        // Another server on the data directory killed meanwhile: its jobs fail now, not at the next start.
        await jobs.failAbandoned(owner, JOB_STALE_MS, RESTART_ERROR, nowTimestamp());
      })().catch(() => undefined); // a busy database skips one beat; the stale bound allows for many
    }, heartbeatMs).unref();
    // A delete through this server cancels at once (cancelForDocument); one from another
    // process is seen here, so its jobs stop within a second instead of working to the end.
    this.deletedDocumentPoll = setInterval(() => {
      const documents = new Set([...this.queue, ...this.running.values()].flatMap((j) => (j.document ? [j.document.id] : [])));
      for (const documentId of documents) {
        void (async () => {
          if (!(await documentExists(documentId))) await this.cancelForDocument(documentId);
        })().catch(() => undefined); // a busy database skips one look; the next comes a second later
      }
    }, DELETED_DOCUMENT_POLL_MS).unref();
  }

  /**
   * Records a pending job and starts it when a slot is free; returns the job row. A job about
   * one document names it, so deleting the document can cancel the job (cancelForDocument).
   */
  async enqueue(jobType: string, params: unknown, task: JobTask, document?: JobDocument): Promise<JobRecord> {
    const jobId = newId("job");
    await this.jobs.insert({ jobId, jobType, params, createdAt: nowTimestamp() }, this.owner);
    const job = (await this.jobs.get(jobId))!;
    this.queue.push({ id: jobId, task, document });
    queueMicrotask(() => this.pump());
    return job;
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.maxConcurrent && this.queue.length > 0) {
      const { id, task, document } = this.queue.shift()!;
      const controller = new AbortController();
      // Progress is written without waiting (the task reports it synchronously); a line that
      // lands after the job ended changes nothing (setProgress only touches running jobs).
      const counts = (e: ProgressEvent) => (e.done !== undefined && e.total !== undefined ? ` (${e.done}/${e.total})` : "");
      const onProgress = (e: ProgressEvent) => void this.jobs.setProgress(id, `${e.strategy ?? e.stage}: ${e.message}${counts(e)}`).catch(() => undefined);
      const done = this.jobs
        .markRunning(id, nowTimestamp())
        .then(() => task({ signal: controller.signal, onProgress }))
        .then(
          async (result) => void (await this.jobs.complete(id, result, nowTimestamp())),
          async (error) =>
            void (await this.jobs.fail(id, error instanceof CancelledError ? cancelReason(controller.signal) : describeError(error), nowTimestamp())),
        )
        .finally(() => {
          this.running.delete(id);
          this.pump();
        });
      this.running.set(id, { controller, done, document });
    }
  }

  /** Fails the queued and running jobs about a deleted document, with a reason that says so. */
  async cancelForDocument(documentId: string): Promise<void> {
    const reason = (document: JobDocument) => deletedDocumentReason(document.filename, document.id);
    // Taken off the queue at once, before any await, so that pump() cannot start them meanwhile.
    const queued = this.queue.filter((q) => q.document?.id === documentId);
    this.queue.splice(0, this.queue.length, ...this.queue.filter((q) => q.document?.id !== documentId));
    const running = [...this.running].filter(([, r]) => r.document?.id === documentId);
    for (const q of queued) await this.jobs.fail(q.id, reason(q.document!), nowTimestamp());
    for (const [id, r] of running) {
      await this.jobs.fail(id, reason(r.document!), nowTimestamp());
      r.controller.abort(reason(r.document!));
    }
  }

  /**
   * Fails one job with the reason: taken off the queue, or stopped where it runs in this process.
   * A job another process on the data directory runs is marked failed; that process finishes its
   * work unseen (its result is not recorded over the failure).
   */
  async cancel(jobId: string, reason: string): Promise<void> {
    const queued = this.queue.findIndex((q) => q.id === jobId);
    if (queued !== -1) this.queue.splice(queued, 1);
    await this.jobs.fail(jobId, reason, nowTimestamp());
    this.running.get(jobId)?.controller.abort(reason);
  }

  /** Stops taking work, cancels running jobs, waits for them, and marks the rest failed. */
  async shutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    clearInterval(this.deletedDocumentPoll);
    const inFlight = [...this.running.values()];
    for (const r of inFlight) r.controller.abort(SHUTDOWN_ERROR);
    await Promise.all(inFlight.map((r) => r.done));
    this.queue.length = 0;
    await this.jobs.failOwned(this.owner, SHUTDOWN_ERROR, nowTimestamp());
  }
}

/** The failure text of a cancelled job: the reason it was aborted with. */
function cancelReason(signal: AbortSignal): string {
  return typeof signal.reason === "string" ? signal.reason : SHUTDOWN_ERROR;
}

/** The evaluation jobs, newest first (never the ingestion surface's: see INGESTION_SURFACE_JOB_TYPES). */
export async function listJobs(jobs: JobsRepo, filter: { jobType?: string; status?: string }, page: { offset: number; limit: number }) {
  const listed = await jobs.list({ ...filter, excludeJobTypes: INGESTION_SURFACE_JOB_TYPES }, page.offset, page.limit);
  return { ...listed, offset: page.offset, limit: page.limit };
}

/**
 * Background requests waiting to run (what max_queued_jobs bounds): not a benchmark's own units
 * (`process_unit`, children of one request) nor /v1 ingestions (bounded by their concurrency).
 */
export async function countQueuedRequests(jobs: JobsRepo): Promise<number> {
  return (await jobs.list({ status: "pending", excludeJobTypes: [...INGESTION_SURFACE_JOB_TYPES, "process_unit"] }, 0, 1)).total;
}

/** One evaluation job; an ingestion-surface job is not found here, as if it did not exist. */
export async function getJob(jobs: JobsRepo, id: string): Promise<JobRecord> {
  const job = await jobs.get(id);
  if (!job || INGESTION_SURFACE_JOB_TYPES.includes(job.jobType)) throw new NotFoundError(`job not found: ${id}`);
  return job;
}

/**
 * Stops an evaluation job that has not ended, wherever it waits or runs (`queue`: the transport's
 * job queue), failed with CANCELLED_BY_REQUEST; a benchmark's processing units stop with it. Not
 * found for no such job (or one of the ingestion surface's); a conflict for one that has ended.
 */
export async function cancelJob(jobs: JobsRepo, queue: JobQueue, id: string): Promise<JobRecord> {
  const job = await getJob(jobs, id);
  if (job.status === "completed" || job.status === "failed") throw new ConflictError(`job ${id} has already ended (${job.status}): nothing to cancel`);
  await queue.cancel(id, CANCELLED_BY_REQUEST);
  return getJob(jobs, id);
}

/**
 * What a job works on, as people know it: "handbook.docx (doc_…)" or "collection reports
 * (col_…)", from the names its request recorded in its parameters (null for jobs from before).
 */
function jobSubject(params: unknown): string | null {
  const p = (params ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  if (text(p.document_id)) return nameWithId(text(p.document_name), text(p.document_id)!);
  // A collection is asked for by id or by name: the name given is not repeated as its id.
  const collection = text(p.collection_id);
  if (collection) return `collection ${text(p.collection_name) === collection ? collection : nameWithId(text(p.collection_name), collection)}`;
  return null;
}

/** A job as the API shows it (SPEC §2 Job, with what it works on): result only when completed, error only when failed. */
export function presentJob(job: JobRecord) {
  return {
    jobId: job.jobId,
    jobType: job.jobType,
    about: jobSubject(job.params),
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
