import type { Owner } from "./owner.js";

export type JobStatus = "pending" | "running" | "completed" | "failed";

export interface JobRecord {
  jobId: string;
  jobType: string;
  status: JobStatus;
  params: unknown;
  result: unknown;
  error: string | null;
  progress: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface JobsFilter {
  jobType?: string;
  status?: string;
  excludeJobTypes?: readonly string[];
}

/** Background jobs. A terminal status (completed, failed) is final. */
export interface JobsRepo {
  insert(job: { jobId: string; jobType: string; params: unknown; createdAt: string }, owner: Owner, nowMs?: number): Promise<void>;
  get(id: string): Promise<JobRecord | null>;
  markRunning(id: string, at: string): Promise<void>;
  setProgress(id: string, progress: string): Promise<void>;
  /** Completes an unfinished job; false when it had already ended. */
  complete(id: string, result: unknown, at: string): Promise<boolean>;
  /** Fails an unfinished job; false when it had already ended. */
  fail(id: string, error: string, at: string): Promise<boolean>;
  /** Tells other servers that `owner`'s unfinished jobs are still being worked on. */
  heartbeat(owner: Owner, nowMs?: number): Promise<void>;
  /** Marks failed every unfinished job of `owner` (its server shuts down); returns how many. */
  failOwned(owner: Owner, error: string, at: string): Promise<number>;
  /** Marks failed the unfinished jobs of other owners that are gone or silent for `staleMs`; returns how many. */
  failAbandoned(me: Owner, staleMs: number, error: string, at: string, nowMs?: number): Promise<number>;
  /** Newest first, optionally filtered by type and status; `excludeJobTypes` are never listed. */
  list(filter: JobsFilter, offset: number, limit: number): Promise<{ items: JobRecord[]; total: number }>;
}
