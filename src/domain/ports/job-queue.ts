import type { ProgressEvent } from "../types.js";
import type { JobRecord } from "./jobs.js";
import { nameWithId } from "../filenames.js";

/** The document a job is about: deleting it cancels the job, whose reason names it. */
export interface JobDocument {
  id: string;
  filename: string;
}

/** The reason a job about a deleted document fails with. */
export function deletedDocumentReason(filename: string | null, documentId: string): string {
  return `cancelled: document ${nameWithId(filename, documentId)} was deleted`;
}

/**
 * What a job runs: `input` (plain JSON, stored with the job) rebuilt into work by the handler of
 * its type. `children` is given by a shared queue (PostgreSQL) only: the job may split its work into child jobs there.
 */
/**
 * The claim a process holds on a job of the shared queue: the job's id, the process's lease owner
 * and the attempt. What a handler writes that must not outlive a lost claim is written only while
 * the queue's row still names all three (the /v1 commit: IngestionRepo.commitSourceFile).
 */
export interface QueueClaim {
  jobId: string;
  leaseOwner: string;
  attempt: number;
}

export type JobHandler = (
  input: unknown,
  options: { signal: AbortSignal; onProgress: (e: ProgressEvent) => void; children?: ChildJobs; claim?: QueueClaim; calls?: SharedCallCount },
) => Promise<unknown>;

/**
 * The chat-model calls of one run of queued work, counted where every process running part of it
 * sees them (on the shared queue: the top-level job's row, shared by its processing units and by
 * every attempt of it), so a budget holds for the work as a whole.
 */
export interface SharedCallCount {
  /** Counts one call if fewer than `max` were made; false when the budget is spent. */
  take(max: number): Promise<boolean>;
}

/** Child jobs of the job being run, on the shared queue (see PostgresJobQueue.runChildren). */
export interface ChildJobs {
  /**
   * Queues the requests as children of the running job, takes part in running them (at most
   * `concurrency` at once here), and resolves with their results in order; rejects with a
   * ChildJobFailed at the first child that failed, the others cancelled.
   */
  run(requests: JobRequest[], options: { signal?: AbortSignal; concurrency: number }): Promise<unknown[]>;
}

/** A child job that failed: its position among the requests, and the error its row records. */
export class ChildJobFailed extends Error {
  constructor(
    readonly index: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}
export type JobHandlers = Readonly<Record<string, JobHandler>>;

/** A background job to run: its type and input (what the handler needs) and params (what `GET /jobs` describes). */
export interface JobRequest {
  jobType: string;
  params: unknown;
  input: unknown;
  document?: JobDocument;
}

/**
 * Where background jobs go, chosen with the metadata store: on SQLite they run inside the
 * process that enqueued them (lost on restart, marked failed); on PostgreSQL they are rows any
 * process (`serve`, `worker`) claims under a lease. Either way the jobs table is what `GET /jobs` shows.
 */
export interface JobQueue {
  /** Records a pending job and returns its row; it runs when a slot (here or in another process) is free. */
  enqueue(request: JobRequest): Promise<JobRecord>;
  /** Fails the unfinished jobs about a deleted document, with a reason that says so. */
  cancelForDocument(documentId: string): Promise<void>;
  /** Fails one unfinished job (and its unfinished children) with the reason, stopping it wherever it runs. */
  cancel(jobId: string, reason: string): Promise<void>;
  /** Stops taking work and stops this process's running jobs (failed on SQLite; released to another process on PostgreSQL). */
  shutdown(): Promise<void>;
}

/** A claimed job's lease unless told otherwise: renewed every third of it, so a killed process's job is taken over within it. */
export const DEFAULT_JOB_LEASE_MS = 30_000;

/** How a process takes part in a shared queue (PostgreSQL). */
export interface JobQueueOptions {
  /** Run jobs here (serve and worker), or only enqueue them (`serve --no-jobs`). */
  consume: boolean;
  /** At most this many jobs at once in this process. */
  concurrency: number;
  /** How long a claimed job stays this process's without a renewal; past it another process takes it over. */
  leaseMs: number;
}
