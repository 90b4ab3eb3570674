import type { Owner } from "./owner.js";
import type { QueueClaim } from "./job-queue.js";

export interface SourceFile {
  id: string;
  tenantId: string;
  domain: string;
  filename: string;
  contentHash: string;
  objectPath: string;
  createdAt: string;
}

export interface IngestionJob {
  id: string;
  tenantId: string;
  domain: string;
  filename: string;
  sourceFileId: string | null;
  status: "running" | "completed" | "failed";
  errorCode: string | null;
  error: string | null;
  chunksIndexed: number;
  pointsCreated: number;
  pointsSoftDeleted: number;
  createdAt: string;
  finishedAt: string | null;
}

/** An ingestion job still `running`, with what it may have written and who runs it. */
export interface UnfinishedIngestion {
  id: string;
  tenantId: string;
  domain: string;
  filename: string;
  createdAt: string;
  owner: { pid: number | null; host: string | null; instance: string | null };
  sourceFile: { id: string; objectPath: string; committed: boolean; pointCount: number } | null;
}

/** What deleting an uncommitted source file found. */
export type SourceFileDeletion = "deleted" | "committed" | "gone";

/** Source files (versions) and ingestion jobs of the /v1 surface; every read is by tenant. */
export interface IngestionRepo {
  /**
   * Atomically gives the file the next version of its name and records it, uncommitted, for
   * `jobId`: concurrent uploads of one name get 1, 2, 3... (never twice).
   */
  allocateSourceFile(f: SourceFile, jobId: string): Promise<number>;
  /** Atomically commits the file's version unless its job is no longer running: then nothing changes and false is returned. */
  /**
   * Commits the version while its ingestion job is running and, for a queued ingestion, while
   * `claim` still holds the queue job (checked in the same transaction, rows locked): "lost" when
   * another attempt holds it now, false when the job is no longer running (its deadline passed).
   */
  commitSourceFile(fileId: string, jobId: string, pointCount: number, claim?: QueueClaim): Promise<boolean | "lost">;
  /** Completes a running job; a failed job stays failed. */
  completeJob(id: string, outcome: { chunksIndexed: number; pointsCreated: number; pointsSoftDeleted: number }, at: string): Promise<boolean>;
  /** Records that a version's points were made live in the vector store. */
  markPublished(tenantId: string, domain: string, filename: string, version: number): Promise<void>;
  /** One page of a tenant's live points, as the files it touches with the range of chunk indexes taken from each, and the total. */
  livePointPage(
    tenantId: string,
    filter: { domain?: string; sourceFileId?: string },
    offset: number,
    limit: number,
  ): Promise<{ slices: Array<{ fileId: string; from: number; to: number }>; total: number }>;
  /** Committed versions whose point count is not recorded (written before it was). */
  versionsWithoutPointCount(): Promise<Array<{ id: string; tenantId: string }>>;
  setPointCount(fileId: string, pointCount: number): Promise<void>;
  /** The newest committed version of a file name (0 when none): the version to publish. */
  liveVersion(tenantId: string, domain: string, filename: string): Promise<number>;
  /** Deletes an uncommitted source file (a committed one stays): "deleted" when it did, else whether it is "committed" or was already "gone". */
  deleteSourceFile(id: string): Promise<SourceFileDeletion>;
  countSourceFiles(tenantId?: string): Promise<number>;
  /** Every /v1 version's original location (`doctor` looks for originals no row names). */
  allObjectPaths(): Promise<string[]>;
  insertJob(j: Pick<IngestionJob, "id" | "tenantId" | "domain" | "filename" | "createdAt">, owner: Owner): Promise<void>;
  /** Records that a failed job's points are still in the vector store, to be removed later. */
  markPointsLeft(jobId: string): Promise<void>;
  jobsWithPointsLeft(): Promise<Array<{ id: string; tenantId: string }>>;
  clearPointsLeft(jobId: string): Promise<void>;
  /** Records that a job's committed version could not be published, to be published later. */
  markPublishPending(jobId: string): Promise<void>;
  jobsWithPublishPending(): Promise<Array<{ id: string; tenantId: string; domain: string; filename: string }>>;
  clearPublishPending(jobId: string): Promise<void>;
  /** Every ingestion job still running, of any process. */
  unfinishedJobs(): Promise<UnfinishedIngestion[]>;
  /**
   * Marks a running job failed unless its version was committed, atomically: a deadline and the
   * commit (commitSourceFile) race, and exactly one of them wins. False when the version was
   * committed or the job had already ended.
   */
  failJobUnlessCommitted(id: string, failure: { errorCode: string; error: string }, at: string): Promise<boolean>;
  /** Marks a running job failed; a job already completed or failed stays as it is. */
  failJob(id: string, failure: { errorCode: string; error: string }, at: string): Promise<boolean>;
  job(tenantId: string, id: string): Promise<IngestionJob | null>;
  jobs(tenantId?: string): Promise<IngestionJob[]>;
}
