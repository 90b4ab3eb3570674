import { extname } from "node:path";
import {
  CancelledError,
  ChunkevalError,
  CLIENT_GONE,
  ConcurrencyLimitError,
  errorOfCode,
  IndexFailedError,
  IngestionTimeoutError,
  UnknownDomainError,
} from "../../errors.js";
import { hashBytes } from "../../domain/hash.js";
import { newId, nowTimestamp, timestampMs } from "../../domain/ids.js";
import type { StoredDocument } from "../../domain/types.js";
import { parseInWorker } from "../../parsers/parse-pool.js";
import { parseLimitsOf } from "../../parsers/limits.js";
import { cleanUploadName } from "../../domain/filenames.js";
import { DEFAULTS } from "../../config/defaults.js";
import type { IngestionJob, IngestionRepo } from "../../domain/ports/ingestion.js";
import type { OriginalsStore } from "../../domain/ports/originals.js";
import type { JobQueue, QueueClaim } from "../../domain/ports/job-queue.js";
import type { JobsRepo } from "../../domain/ports/jobs.js";
import { V1_INGESTION_JOB } from "../jobs/jobs.js";
import type { PointsStore } from "../../stores/vectors/points-store.js";
import type { ServiceContext } from "../context.js";
import { runIndexing } from "../corpus/indexing.js";
import { pointsSink, type Allocated, type SinkStores, type Written } from "./ingestion-sink.js";
import { failureOf, INGESTION_INTERRUPTED, settleAbandoned } from "./ingestion-recovery.js";

export interface IngestionLimits {
  maxConcurrency: number;
  timeoutSeconds: number;
  maxChunks: number;
  /** Dense embedding: texts per batch and batches in flight at once. */
  embedBatchSize: number;
  embedConcurrency: number;
}

export interface IngestionResult {
  fileId: string;
  ingestionJobId: string;
  domain: string;
  filename: string;
  version: number;
  chunksIndexed: number;
  pointsCreated: number;
  pointsSoftDeleted: number;
}

/**
 * Texts per embedding call during ingestion: small, so the deadline is checked often and a
 * timed-out ingestion stops soon (the 504 itself never waits for it, see `ingest`).
 */
const INGESTION_EMBED_BATCH = 8;

/** How often a replica waiting for a queued ingestion reads its job row. */
const QUEUED_POLL_MS = 100;

/**
 * What a queued ingestion stores with its queue job: its /v1 job row, and its version, allocated
 * when the upload was accepted, with the original already in the originals store.
 */
export interface QueuedIngestionInput {
  jobId: string;
  tenantId: string;
  domain: string;
  filename: string;
  fileId: string;
  version: number;
  original: string;
}

/**
 * File ingestion of the /v1 surface, over the shared indexing pipeline. The domain check runs
 * in the first transaction, before any object, job row or point is written; after it every
 * outcome ends in a terminal job row. Points are written hidden and shown only once their
 * version is committed, so nothing half-indexed is ever searchable; every failure path removes
 * the points, source-file row and stored object it wrote.
 */
export class IngestionService {
  private active = 0;
  /** Failed ingestions still winding down after their 504: close() waits for their cleanup. */
  private readonly settling = new Set<Promise<unknown>>();

  /** Whether INGESTION_MAX_CONCURRENCY ingestions are running here: a new upload is refused before its body is read. */
  atCapacity(): boolean {
    return this.active >= this.limits.maxConcurrency;
  }

  constructor(
    private readonly ctx: ServiceContext,
    private readonly repo: IngestionRepo,
    private readonly points: PointsStore,
    private readonly limits: IngestionLimits,
    private readonly originals: OriginalsStore,
    private readonly jobs: JobsRepo,
  ) {}

  /**
   * Ingests an upload. With `queue` (a shared queue: PostgreSQL) the work is a queue job any
   * `serve` or `worker` runs (runQueued), and this waits for its /v1 job row to end; otherwise
   * it runs here.
   */
  async ingest(tenantId: string, domain: string, rawFilename: string, bytes: Buffer, queue?: JobQueue, clientGone?: AbortSignal): Promise<IngestionResult> {
    const filename = cleanUploadName(rawFilename, DEFAULTS.maxFilenameLength) || "upload";
    const jobId = newId("ing");
    // Refused before anything is stored: a busy server leaves no failed job row behind.
    if (this.atCapacity()) {
      throw new ConcurrencyLimitError(`more than INGESTION_MAX_CONCURRENCY (${this.limits.maxConcurrency}) ingestions at once; retry later`);
    }
    this.active++;
    // The domain check and the job row in one transaction: a domain disabled meanwhile gets no job.
    try {
      await this.ctx.transaction(async (tx) => {
        const record = await tx.tenants.domain(tenantId, domain);
        if (!record || record.status !== "active") throw new UnknownDomainError(`no active domain "${domain}" for this tenant; create or enable it first`);
        await tx.ingestion.insertJob({ id: jobId, tenantId, domain, filename, createdAt: nowTimestamp() }, this.ctx.owner);
      });
    } catch (error) {
      this.active--;
      throw error;
    }
    const fail = (error: ChunkevalError) => this.repo.failJob(jobId, failureOf(error), nowTimestamp());
    if (queue) {
      try {
        return await this.ingestQueued({ jobId, tenantId, domain, filename }, bytes, queue, clientGone);
      } finally {
        this.active--;
      }
    }
    const controller = new AbortController();
    const step = { name: "parsing the file" };
    const deadline = this.armDeadline(jobId, this.limits.timeoutSeconds * 1000, step, controller, clientGone);
    const work = this.run(jobId, tenantId, domain, filename, bytes, { signal: controller.signal, step, disarmDeadline: deadline.disarm }, {});
    let slotLeftToWork = false;
    try {
      return await Promise.race([work, deadline.expired]);
    } catch (error) {
      const known =
        error === deadline.stoppedBy() || (error instanceof ChunkevalError && !(error instanceof CancelledError))
          ? (error as ChunkevalError)
          : new IndexFailedError(`ingestion failed while ${step.name}`, { cause: error });
      await fail(known);
      // After a timeout or a disconnect the work is still running: answer now; it stops at its next
      // check and removes what it wrote (run's own failure path), and close() waits for that. It
      // keeps its INGESTION_MAX_CONCURRENCY slot until then: a client that uploads and hangs up
      // again and again does not get more ingestions running than the limit.
      slotLeftToWork = true;
      const settled = work
        .catch(() => undefined)
        .finally(() => {
          this.settling.delete(settled);
          this.active--;
        });
      this.settling.add(settled);
      throw known;
    } finally {
      deadline.disarm();
      if (!slotLeftToWork) this.active--;
    }
  }

  /**
   * Starts an ingestion's deadline. The deadline and the version's commit race; one atomic store
   * operation settles which came first: the deadline first, the job is failed, the work aborted
   * and `expired` rejects; the commit first, the upload has succeeded and nothing happens.
   * Once the version is committed the work disarms it. A client that disconnects (`clientGone`)
   * stops it the same way, with a CancelledError: nobody is left to read its answer.
   */
  private armDeadline(jobId: string, ms: number, step: { name: string }, controller: AbortController, clientGone?: AbortSignal) {
    let timer: NodeJS.Timeout | undefined;
    let stoppedBy: ChunkevalError | undefined;
    let onClientGone = () => undefined as void;
    const expired = new Promise<never>((_, reject) => {
      const stop = (error: ChunkevalError, reason: string) => {
        if (stoppedBy) return;
        stoppedBy = error;
        this.repo.failJobUnlessCommitted(jobId, failureOf(error), nowTimestamp()).then(
          (stopWon) => {
            if (!stopWon) return;
            controller.abort(reason);
            reject(error);
          },
          () => {
            // The store cannot say: the work stops and the request fails (its job is recovered like a killed server's).
            controller.abort(reason);
            reject(error);
          },
        );
      };
      timer = setTimeout(
        () => stop(new IngestionTimeoutError(`ingestion exceeded INGESTION_TIMEOUT_SECONDS (${this.limits.timeoutSeconds}) while ${step.name}`), "timeout"),
        Math.max(0, ms),
      );
      onClientGone = () => stop(new CancelledError(`${CLIENT_GONE} while ${step.name}`), "client gone");
      if (clientGone?.aborted) onClientGone();
      else clientGone?.addEventListener("abort", onClientGone, { once: true });
    });
    return {
      expired,
      /** The error that stopped the work (its deadline or its client), once one did. */
      stoppedBy: () => stoppedBy,
      disarm: () => {
        clearTimeout(timer);
        clientGone?.removeEventListener("abort", onClientGone);
      },
    };
  }

  /**
   * The accepting side of a queued ingestion: the original goes to the originals store (which
   * every process reads), the version is allocated, and the queue job carries the rest. Then
   * this waits for the job row, which whichever process runs the job keeps true.
   */
  private async ingestQueued(
    job: { jobId: string; tenantId: string; domain: string; filename: string },
    bytes: Buffer,
    queue: JobQueue,
    clientGone: AbortSignal | undefined,
  ) {
    const { jobId, tenantId, domain, filename } = job;
    const fileId = newId("file");
    let original: string | undefined;
    let queued: Allocated & { queueJobId: string };
    try {
      original = await this.originals.put(`objects/${fileId}${extname(filename).toLowerCase()}`, bytes);
      const version = await this.repo.allocateSourceFile(
        { id: fileId, tenantId, domain, filename, contentHash: hashBytes(bytes), objectPath: original, createdAt: nowTimestamp() },
        jobId,
      );
      const input: QueuedIngestionInput = { ...job, fileId, version, original };
      const record = await queue.enqueue({ jobType: V1_INGESTION_JOB, params: { ingestion_job_id: jobId }, input });
      queued = { fileId, version, original, queueJobId: record.jobId };
    } catch (error) {
      const known = error instanceof ChunkevalError ? error : new IndexFailedError("ingestion failed while storing the file", { cause: error });
      // Each step even when one before it fails (the store is briefly unreachable): a job row left
      // running is ended after its deadline, with its version and original (recoverAbandonedIngestions).
      await this.repo.failJob(jobId, failureOf(known), nowTimestamp()).catch(() => undefined);
      await this.repo.deleteSourceFile(fileId).catch(() => undefined);
      if (original) await this.originals.remove(original).catch(() => undefined);
      throw known;
    }
    return this.awaitQueued(job, queued, clientGone);
  }

  /**
   * Waits for a queued ingestion's job row to end: its result once completed, its error once
   * failed. At the deadline this fails it unless its version was committed (the store operation
   * the running process's commit races), so the 504 is on time whichever process runs it; that
   * process stops at its next check and removes what it wrote. A queue job that ended without
   * ending the row (its processes stopped too often) fails the row here with the queue's reason.
   * A read the store does not answer (a brief outage) is tried again until the deadline, as the
   * job may still commit meanwhile; past it, the outcome unknown, the upload fails naming the job.
   * A client that disconnects ends the wait as the deadline does (its job failed unless committed).
   */
  private async awaitQueued(
    job: { jobId: string; tenantId: string; domain: string; filename: string },
    queued: Allocated & { queueJobId: string },
    clientGone: AbortSignal | undefined,
  ): Promise<IngestionResult> {
    const deadlineAt = Date.now() + this.limits.timeoutSeconds * 1000;
    for (;;) {
      const result = await this.pollQueued(job, queued, deadlineAt, clientGone).catch((error: unknown) => {
        if (error instanceof ChunkevalError) throw error;
        if (Date.now() < deadlineAt) return undefined; // asked again at the next poll
        throw new IndexFailedError(
          `the metadata store did not answer while waiting for ingestion job ${job.jobId}, which may still complete; ` +
            `GET /v1/ingestion-jobs/${job.jobId} tells its outcome`,
          { cause: error },
        );
      });
      if (result) return result;
      await new Promise((resolve) => setTimeout(resolve, QUEUED_POLL_MS));
    }
  }

  /** One look at a queued ingestion's rows (see awaitQueued): its result once completed, undefined while it is not over. */
  private async pollQueued(
    job: { jobId: string; tenantId: string; domain: string; filename: string },
    queued: Allocated & { queueJobId: string },
    deadlineAt: number,
    clientGone: AbortSignal | undefined,
  ): Promise<IngestionResult | undefined> {
    const row = await this.repo.job(job.tenantId, job.jobId);
    if (!row) throw new IndexFailedError("the ingestion job is gone");
    if (row.status === "completed") return resultOf(row, queued);
    if (row.status === "failed") throw errorOfCode(row.errorCode, row.error ?? "ingestion failed");
    const queueJob = await this.jobs.get(queued.queueJobId);
    if (Date.now() >= deadlineAt || clientGone?.aborted) {
      const where = queueJob?.status === "pending" ? "waiting for a process to run it" : "it was running";
      const error = clientGone?.aborted
        ? new CancelledError(`${CLIENT_GONE} while ${where}`)
        : new IngestionTimeoutError(`ingestion exceeded INGESTION_TIMEOUT_SECONDS (${this.limits.timeoutSeconds}) while ${where}`);
      if (await this.repo.failJobUnlessCommitted(job.jobId, failureOf(error), nowTimestamp())) {
        // Not started yet: its version and original go now (a process that claims it later finds it
        // failed, runs nothing and removes them itself if the store did not answer here).
        if (queueJob?.status === "pending") await this.removeQueued(job.tenantId, job.jobId, queued).catch(() => undefined);
        throw error;
      }
    }
    if (queueJob?.status === "failed" || queueJob?.status === "completed") {
      const unfinished = (await this.repo.unfinishedJobs()).find((j) => j.id === job.jobId);
      if (unfinished) {
        const failure = new IndexFailedError(`ingestion failed: ${queueJob.error ?? "its queue job ended without it"}`);
        await settleAbandoned(this.repo, this.points, this.originals, unfinished, failure);
      }
    }
    return undefined;
  }

  /**
   * Runs a queued ingestion (the `v1_ingestion` job's handler), in whichever process claimed it,
   * within what is left of its deadline (from its job row's creation). A job taken over from a
   * process that died starts again: that attempt's hidden points are removed first, and a
   * version it had committed is published instead. Given back (shutdown) or no longer this
   * process's, it stops and leaves the row, version and original to the next attempt; any other
   * failure fails the row and removes the points, the version and the original, unless the
   * version was committed (by another attempt of the job: this one's lease lapsed meanwhile).
   */
  async runQueued(input: QueuedIngestionInput, signal: AbortSignal, claim?: QueueClaim): Promise<IngestionResult> {
    const { jobId, tenantId, domain, filename } = input;
    const allocated: Allocated = { fileId: input.fileId, version: input.version, original: input.original, claim };
    const row = await this.repo.job(tenantId, jobId);
    if (!row) throw new IndexFailedError(`ingestion job ${jobId} not found`);
    if (row.status === "completed") return resultOf(row, allocated);
    const unfinished = row.status === "running" ? (await this.repo.unfinishedJobs()).find((j) => j.id === jobId) : undefined;
    if (!unfinished) {
      // Completed meanwhile, between the two reads (by another attempt): the upload succeeded.
      const now = (await this.repo.job(tenantId, jobId)) ?? row;
      if (now.status === "completed") return resultOf(now, allocated);
      // Failed meanwhile (its deadline passed before it ran): what its acceptance stored goes.
      await this.removeQueued(tenantId, jobId, allocated);
      throw errorOfCode(now.errorCode, now.error ?? "ingestion failed");
    }
    if (unfinished.sourceFile?.committed) {
      await settleAbandoned(this.repo, this.points, this.originals, unfinished, new IndexFailedError(INGESTION_INTERRUPTED));
      return resultOf((await this.repo.job(tenantId, jobId))!, allocated);
    }
    await this.removeAttemptPoints(tenantId, jobId, input.fileId); // a killed attempt's hidden points
    const controller = new AbortController();
    const stopped = () => controller.abort("given back");
    signal.addEventListener("abort", stopped, { once: true });
    const step = { name: "reading the original" };
    const deadline = this.armDeadline(jobId, timestampMs(row.createdAt) + this.limits.timeoutSeconds * 1000 - Date.now(), step, controller);
    // The replica that accepted the upload may fail the job while this attempt runs (its deadline,
    // its client gone): the work stops at its next check instead of embedding on for nobody.
    const failedElsewhere = setInterval(() => {
      this.repo.job(tenantId, jobId).then(
        (now) => {
          if (now?.status === "failed") controller.abort("the job failed in the replica that accepted it");
        },
        () => undefined, // the store did not answer: asked again at the next look
      );
    }, QUEUED_POLL_MS);
    const written: Written = {};
    const work = (async () => {
      const bytes = await this.originals.read(input.original);
      if (!bytes) throw new IndexFailedError("the uploaded file is no longer in the originals store");
      step.name = "parsing the file";
      return this.run(jobId, tenantId, domain, filename, bytes, { signal: controller.signal, step, disarmDeadline: deadline.disarm }, written, allocated);
    })();
    try {
      return await Promise.race([work, deadline.expired]);
    } catch (error) {
      await work.catch(() => undefined); // its own failure path has removed the points it wrote
      // Given back, or overtaken by another attempt: the job is theirs to finish, not this one's to fail.
      if (signal.aborted || written.claimLost) throw error;
      const known =
        error instanceof ChunkevalError && !(error instanceof CancelledError)
          ? error
          : new IndexFailedError(`ingestion failed while ${step.name}`, { cause: error });
      await this.repo.failJob(jobId, failureOf(known), nowTimestamp());
      if (!written.committed) await this.removeQueued(tenantId, jobId, allocated);
      throw known;
    } finally {
      clearInterval(failedElsewhere);
      deadline.disarm();
      signal.removeEventListener("abort", stopped);
    }
  }

  /**
   * Removes the hidden points earlier attempts of a queued ingestion wrote (its version's: nothing
   * else writes that version). Looked for first: a delete is a write to the tenant's table, and
   * LanceDB may refuse another process's write that meets it, so none is made when nothing is there.
   */
  private async removeAttemptPoints(tenantId: string, jobId: string, fileId: string): Promise<void> {
    if ((await this.points.countOfVersion(tenantId, fileId)) > 0) await this.points.deleteByJob(tenantId, jobId);
  }

  /**
   * Removes what a queued ingestion that ended failed stored: its uncommitted version, then its
   * hidden points and its original. Nothing when the version was committed: another attempt of
   * the job (this process's lease lapsed while it was alive) committed it, and the points and the
   * original are the upload's. The version's row goes first, in one query that checks it is not
   * committed, so no commit can follow it (a commit also needs the job running, and it has ended).
   * A version already gone was removed by another side of the job (the replica that accepted it,
   * at its deadline or when its client left) while this attempt still wrote: the points this
   * attempt wrote since go too, or the next upload of the name, given the same version number,
   * would publish them.
   */
  private async removeQueued(tenantId: string, jobId: string, allocated: Allocated): Promise<void> {
    if ((await this.repo.deleteSourceFile(allocated.fileId)) === "committed") return;
    await this.removeAttemptPoints(tenantId, jobId, allocated.fileId).catch(() => this.repo.markPointsLeft(jobId));
    await this.originals.remove(allocated.original);
  }

  private async run(
    jobId: string,
    tenantId: string,
    domain: string,
    filename: string,
    bytes: Buffer,
    deadline: { signal: AbortSignal; step: { name: string }; disarmDeadline(): void },
    written: Written,
    allocated?: Allocated,
  ): Promise<IngestionResult> {
    const { signal, step } = deadline;
    const parsed = await parseInWorker(bytes, filename, parseLimitsOf(this.ctx.config), signal);
    const document: StoredDocument = { id: jobId, filename, paragraphCount: parsed.blocks.length, chunkCounts: {}, createdAt: nowTimestamp(), ...parsed };
    let version = 0;
    step.name = "chunking and embedding";
    const { committed, searchable } = await runIndexing(
      this.ctx,
      {
        document,
        strategy: this.ctx.config.ingestion.strategy,
        embedder: await this.ctx.embedder(),
        llm: await this.ctx.llm(),
        embedBatchSize: Math.min(this.limits.embedBatchSize, INGESTION_EMBED_BATCH),
        embedConcurrency: this.limits.embedConcurrency,
        maxChunks: { limit: this.limits.maxChunks, setting: "INGESTION_MAX_CHUNKS" },
        signal,
      },
      async (plan) => {
        step.name = "storing the file";
        const sink = pointsSink(this.sinkStores(), { jobId, tenantId, domain, filename, bytes, format: parsed.format, ...deadline, written, allocated }, plan);
        try {
          version = await sink.allocate();
        } catch (error) {
          await sink.discard();
          throw error;
        }
        return sink;
      },
    );
    return {
      fileId: written.fileId!,
      ingestionJobId: jobId,
      domain,
      filename,
      version,
      chunksIndexed: searchable.length,
      pointsCreated: searchable.length,
      pointsSoftDeleted: committed,
    };
  }

  private sinkStores(): SinkStores {
    return { repo: this.repo, points: this.points, originals: this.originals, timeoutSeconds: this.limits.timeoutSeconds };
  }

  /** Waits for timed-out ingestions to finish removing what they wrote. */
  async drain(): Promise<void> {
    await Promise.all([...this.settling]);
  }
}

/** The answer of a completed ingestion, from its job row and its version. */
function resultOf(row: IngestionJob, allocated: { fileId: string; version: number }): IngestionResult {
  return {
    fileId: allocated.fileId,
    ingestionJobId: row.id,
    domain: row.domain,
    filename: row.filename,
    version: allocated.version,
    chunksIndexed: row.chunksIndexed,
    pointsCreated: row.pointsCreated,
    pointsSoftDeleted: row.pointsSoftDeleted,
  };
}
