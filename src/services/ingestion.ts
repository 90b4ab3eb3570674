import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CancelledError, ChunkevalError, ConcurrencyLimitError, IndexFailedError, IngestionTimeoutError, UnknownDomainError } from "../errors.js";
import { pointIdOf } from "./points.js";
import { hashBytes } from "../domain/hash.js";
import { newId, nowTimestamp } from "../domain/ids.js";
import type { StoredDocument } from "../domain/types.js";
import type { Owner } from "../domain/ports/owner.js";
import { ownerGone } from "../stores/owner.js";
import { parseInWorker } from "../parsers/parse-pool.js";
import { parseLimitsOf } from "../parsers/limits.js";
import { cleanUploadName } from "../domain/filenames.js";
import { DEFAULTS } from "../config/defaults.js";
import type { IngestionRepo } from "../domain/ports/ingestion.js";
import type { PointsStore } from "../stores/vectors/points-store.js";
import type { ServiceContext } from "./context.js";
import { runIndexing, type IndexPlan, type IndexSink } from "./indexing.js";

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

/** The failure reason of an ingestion whose server stopped before it finished (found at the next start). */
export const INGESTION_INTERRUPTED = "interrupted: the server running this ingestion stopped before it finished";

/**
 * Texts per embedding call during ingestion: small, so the deadline is checked often and a
 * timed-out ingestion stops soon (the 504 itself never waits for it, see `ingest`).
 */
const INGESTION_EMBED_BATCH = 8;

/** What one ingestion has written so far, so its failure path can remove exactly that. */
interface Written {
  fileId?: string;
  objectPath?: string;
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

  constructor(
    private readonly ctx: ServiceContext,
    private readonly repo: IngestionRepo,
    private readonly points: PointsStore,
    private readonly limits: IngestionLimits,
    private readonly objectsDir: string,
  ) {}

  async ingest(tenantId: string, domain: string, rawFilename: string, bytes: Buffer): Promise<IngestionResult> {
    const filename = cleanUploadName(rawFilename, DEFAULTS.maxFilenameLength) || "upload";
    const jobId = newId("ing");
    // The domain check and the job row in one transaction: a domain disabled meanwhile gets no job.
    await this.ctx.transaction(async (tx) => {
      const record = await tx.tenants.domain(tenantId, domain);
      if (!record || record.status !== "active") throw new UnknownDomainError(`no active domain "${domain}" for this tenant; create or enable it first`);
      await tx.ingestion.insertJob({ id: jobId, tenantId, domain, filename, createdAt: nowTimestamp() }, this.ctx.owner);
    });
    const failure = (error: ChunkevalError) => ({ errorCode: error.code, error: error.message });
    const fail = (error: ChunkevalError) => this.repo.failJob(jobId, failure(error), nowTimestamp());
    if (this.active >= this.limits.maxConcurrency) {
      const error = new ConcurrencyLimitError(`more than INGESTION_MAX_CONCURRENCY (${this.limits.maxConcurrency}) ingestions at once; retry later`);
      await fail(error);
      throw error;
    }
    this.active++;
    const controller = new AbortController();
    const step = { name: "parsing the file" };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new IngestionTimeoutError(`ingestion exceeded INGESTION_TIMEOUT_SECONDS (${this.limits.timeoutSeconds}) while ${step.name}`);
        // The deadline and the version's commit race; one atomic store operation settles which
        // came first. Committed first: the upload has succeeded and the deadline no longer applies.
        this.repo.failJobUnlessCommitted(jobId, failure(error), nowTimestamp()).then(
          (deadlineWon) => {
            if (!deadlineWon) return;
            controller.abort("timeout");
            reject(error);
          },
          () => {
            // The store cannot say: the work stops and the request fails (its job is recovered like a killed server's).
            controller.abort("timeout");
            reject(error);
          },
        );
      }, this.limits.timeoutSeconds * 1000);
    });
    // Once the version is committed the upload has succeeded: the deadline no longer applies.
    const disarmDeadline = () => clearTimeout(timer);
    const work = this.run(jobId, tenantId, domain, filename, bytes, { signal: controller.signal, step, disarmDeadline });
    try {
      return await Promise.race([work, timeout]);
    } catch (error) {
      const known =
        error instanceof ChunkevalError && !(error instanceof CancelledError)
          ? error
          : new IndexFailedError(`ingestion failed while ${step.name}`, { cause: error });
      await fail(known);
      // After a timeout the work is still running: answer now; it stops at its next check and
      // removes what it wrote (run's own failure path), and close() waits for that.
      const settled = work.catch(() => undefined).finally(() => this.settling.delete(settled));
      this.settling.add(settled);
      throw known;
    } finally {
      clearTimeout(timer);
      this.active--;
    }
  }

  private async run(
    jobId: string,
    tenantId: string,
    domain: string,
    filename: string,
    bytes: Buffer,
    deadline: { signal: AbortSignal; step: { name: string }; disarmDeadline(): void },
  ): Promise<IngestionResult> {
    const { signal, step } = deadline;
    const parsed = await parseInWorker(bytes, filename, parseLimitsOf(this.ctx.config), signal);
    const document: StoredDocument = { id: jobId, filename, paragraphCount: parsed.blocks.length, chunkCounts: {}, createdAt: nowTimestamp(), ...parsed };
    const written: Written = {};
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
        maxChunks: this.limits.maxChunks,
        signal,
      },
      async (plan) => {
        step.name = "storing the file";
        const sink = this.pointsSink({ jobId, tenantId, domain, filename, bytes, format: parsed.format, ...deadline, written }, plan);
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

  /** The sink of an ingestion: a new version of the file whose points stay hidden until it is committed. */
  private pointsSink(
    job: {
      jobId: string;
      tenantId: string;
      domain: string;
      filename: string;
      bytes: Buffer;
      format: string;
      signal: AbortSignal;
      step: { name: string };
      disarmDeadline(): void;
      written: Written;
    },
    plan: IndexPlan,
  ): IndexSink<number> & { allocate(): Promise<number> } {
    const { jobId, tenantId, domain, filename, written, step } = job;
    let version = 0;
    let committed = false;
    return {
      allocate: async () => {
        written.fileId = newId("file");
        written.objectPath = join(this.objectsDir, `${written.fileId}.${job.format}`);
        version = await this.repo.allocateSourceFile(
          { id: written.fileId, tenantId, domain, filename, contentHash: hashBytes(job.bytes), objectPath: written.objectPath, createdAt: nowTimestamp() },
          jobId,
        );
        await mkdir(this.objectsDir, { recursive: true });
        await writeFile(written.objectPath, job.bytes);
        return version;
      },
      write: async (chunks) => {
        step.name = "writing chunks to the vector store";
        await this.points.add(
          chunks.map((c, i) => ({
            pointId: pointIdOf(written.fileId!, i),
            tenantId,
            domain,
            sourceFileId: written.fileId!,
            filename,
            version,
            chunkIndex: i,
            text: c.text,
            start: c.chunk.start,
            end: c.chunk.end,
            deleted: true,
            ingestionJobId: jobId,
            vector: c.vector,
          })),
        );
      },
      commit: async () => {
        step.name = "committing the new version";
        // Atomic check-and-commit in the store: a deadline recorded before it (the job failed) wins;
        // one after it finds the version committed and cannot undo it (failJobUnlessCommitted).
        const indexed = plan.chunks.filter((c) => c.role === "chunk").length;
        if (job.signal.aborted || !(await this.repo.commitSourceFile(written.fileId!, jobId, indexed))) {
          throw new IngestionTimeoutError(`ingestion exceeded INGESTION_TIMEOUT_SECONDS (${this.limits.timeoutSeconds})`);
        }
        job.disarmDeadline();
        committed = true;
        step.name = "publishing the new version";
        const hidden = await publishLatest(this.repo, this.points, tenantId, domain, filename).catch(async (error: unknown) => {
          // The version is committed and stays; the next server start (or upload of this name) publishes it.
          await this.repo.markPublishPending(jobId);
          throw new IndexFailedError(
            "the new version was committed but publishing it failed; it becomes searchable when the server next starts or this file is uploaded again",
            { cause: error },
          );
        });
        await this.repo.completeJob(jobId, { chunksIndexed: indexed, pointsCreated: indexed, pointsSoftDeleted: hidden }, nowTimestamp());
        return hidden;
      },
      discard: async () => {
        // Committed but not published (the publication failed): the version stays; publish it later.
        if (committed) return;
        // The vector store failing here too: the next server start removes them (recoverAbandonedIngestions).
        await this.points.deleteByJob(tenantId, jobId).catch(() => this.repo.markPointsLeft(jobId));
        if (written.fileId) await this.repo.deleteSourceFile(written.fileId);
        if (written.objectPath) await rm(written.objectPath, { force: true }).catch(() => undefined);
      },
    };
  }

  /** Waits for timed-out ingestions to finish removing what they wrote. */
  async drain(): Promise<void> {
    await Promise.all([...this.settling]);
  }
}

/**
 * Shows the newest committed version of a file and hides the others. Uploads of one name can
 * publish at once (in this or another server): each applies the newest version it reads, then
 * reads again and repeats if a newer one was committed meanwhile, so the last write applied is
 * always the newest version's. Returns how many points it hid.
 */
async function publishLatest(repo: IngestionRepo, points: PointsStore, tenantId: string, domain: string, filename: string): Promise<number> {
  let hidden = 0;
  for (
    let live = await repo.liveVersion(tenantId, domain, filename), applied = 0;
    live !== applied;
    live = await repo.liveVersion(tenantId, domain, filename)
  ) {
    hidden += await points.setLiveVersion(tenantId, domain, filename, live);
    await repo.markPublished(tenantId, domain, filename, live);
    applied = live;
  }
  return hidden;
}

/**
 * Run when a server starts: recovers the ingestion jobs whose server is gone (killed
 * mid-ingestion). A job whose version was not committed is marked failed and what it wrote is
 * removed; one killed between commit and publication has its version published and is
 * completed. Failed jobs whose points could not be removed when they failed lose them now, and
 * versions committed whose publication failed are published (and versions from before point
 * counts were recorded are counted once).
 * `points` is null when the /v1 collection (the `chunks` table) does not exist: then no point was
 * written, unless someone removed it by hand, in which case points of tenant tables stay. Returns
 * how many jobs were marked failed.
 */
export async function recoverAbandonedIngestions(repo: IngestionRepo, points: PointsStore | null, me: Owner): Promise<number> {
  let failed = 0;
  for (const job of await repo.unfinishedJobs()) {
    if (job.owner.instance === me.instance || !ownerGone(job.owner, me)) continue;
    if (job.sourceFile?.committed) {
      // Committed: the upload succeeded and only needs publishing (left for a later start if the collection is gone).
      if (!points) continue;
      const hidden = await publishLatest(repo, points, job.tenantId, job.domain, job.filename);
      const indexed = job.sourceFile.pointCount;
      await repo.completeJob(job.id, { chunksIndexed: indexed, pointsCreated: indexed, pointsSoftDeleted: hidden }, nowTimestamp());
      continue;
    }
    const interrupted = new IndexFailedError(INGESTION_INTERRUPTED);
    if (!(await repo.failJob(job.id, { errorCode: interrupted.code, error: interrupted.message }, nowTimestamp()))) continue;
    await points?.deleteByJob(job.tenantId, job.id);
    if (job.sourceFile) {
      await repo.deleteSourceFile(job.sourceFile.id);
      await rm(job.sourceFile.objectPath, { force: true });
    }
    failed++;
  }
  if (points) {
    for (const job of await repo.jobsWithPointsLeft()) {
      await points.deleteByJob(job.tenantId, job.id);
      await repo.clearPointsLeft(job.id);
    }
    for (const version of await repo.versionsWithoutPointCount())
      await repo.setPointCount(version.id, await points.countOfVersion(version.tenantId, version.id));
    for (const job of await repo.jobsWithPublishPending()) {
      await publishLatest(repo, points, job.tenantId, job.domain, job.filename);
      await repo.clearPublishPending(job.id);
    }
  }
  return failed;
}
