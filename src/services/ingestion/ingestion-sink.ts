// A /v1 ingestion's sink: where the indexing pipeline's chunks go (a new version of the file,
// its points hidden until the version is committed, then published), and its removal on failure.
import { CancelledError, IndexFailedError, IngestionTimeoutError } from "../../errors.js";
import { pointIdOf } from "./points.js";
import { hashBytes } from "../../domain/hash.js";
import { newId, nowTimestamp } from "../../domain/ids.js";
import type { IngestionRepo } from "../../domain/ports/ingestion.js";
import type { OriginalsStore } from "../../domain/ports/originals.js";
import type { QueueClaim } from "../../domain/ports/job-queue.js";
import type { PointsStore } from "../../stores/vectors/points-store.js";
import type { IndexPlan, IndexSink } from "../corpus/indexing.js";

/** A version allocated before the work starts (queued ingestion): the sink uses it instead of allocating one. */
export interface Allocated {
  fileId: string;
  version: number;
  original: string;
  /** The queue claim of the attempt running it: its commit happens only while the claim holds. */
  claim?: QueueClaim;
}

/** What one ingestion has written so far, so its failure path can remove exactly that. */
export interface Written {
  fileId?: string;
  objectPath?: string;
  committed?: boolean;
  /** A queued attempt found at its commit that another attempt holds the job: it leaves everything to that one. */
  claimLost?: boolean;
}

/** What an ingestion's sink writes to: the /v1 rows, the points, the originals; and the deadline it reports. */
export interface SinkStores {
  repo: IngestionRepo;
  points: PointsStore;
  originals: OriginalsStore;
  timeoutSeconds: number;
}

/** The sink of an ingestion: a new version of the file whose points stay hidden until it is committed. */
export function pointsSink(
  stores: SinkStores,
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
    /** A queued ingestion's version, allocated when it was accepted: kept by discard, for its next attempt or its failure path. */
    allocated?: Allocated;
  },
  plan: IndexPlan,
): IndexSink<number> & { allocate(): Promise<number> } {
  const { jobId, tenantId, domain, filename, written, step } = job;
  let version = 0;
  let committed = false;
  return {
    allocate: async () => {
      if (job.allocated) {
        written.fileId = job.allocated.fileId;
        version = job.allocated.version;
        return version;
      }
      const fileId = newId("file");
      written.objectPath = await stores.originals.put(`objects/${fileId}.${job.format}`, job.bytes);
      written.fileId = fileId;
      version = await stores.repo.allocateSourceFile(
        { id: fileId, tenantId, domain, filename, contentHash: hashBytes(job.bytes), objectPath: written.objectPath, createdAt: nowTimestamp() },
        jobId,
      );
      return version;
    },
    write: async (chunks) => {
      step.name = "writing chunks to the vector store";
      await stores.points.add(
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
      const outcome = job.signal.aborted ? false : await stores.repo.commitSourceFile(written.fileId!, jobId, indexed, job.allocated?.claim);
      if (outcome === "lost") {
        // Another attempt holds the queue job now (this one's lease expired): it, not this one, commits and cleans up.
        written.claimLost = true;
        throw new CancelledError("this attempt's lease on the queue job expired and another attempt runs it; nothing committed");
      }
      if (!outcome) throw new IngestionTimeoutError(`ingestion exceeded INGESTION_TIMEOUT_SECONDS (${stores.timeoutSeconds})`);
      job.disarmDeadline();
      committed = written.committed = true;
      step.name = "publishing the new version";
      const hidden = await publishLatest(stores.repo, stores.points, tenantId, domain, filename).catch(async (error: unknown) => {
        // The version is committed and stays; the next server start (or upload of this name) publishes it.
        await stores.repo.markPublishPending(jobId);
        throw new IndexFailedError(
          "the new version was committed but publishing it failed; it becomes searchable when the server next starts or this file is uploaded again",
          { cause: error },
        );
      });
      await stores.repo.completeJob(jobId, { chunksIndexed: indexed, pointsCreated: indexed, pointsSoftDeleted: hidden }, nowTimestamp());
      return hidden;
    },
    discard: async () => {
      // Committed but not published (the publication failed): the version stays; publish it later.
      if (committed) return;
      // A queued ingestion's points are its job's, which every attempt shares: runQueued removes
      // them when the job fails (removeQueued), not an attempt that another may have replaced.
      if (job.allocated) return;
      // The vector store failing here too: the next server start removes them (recoverAbandonedIngestions).
      await stores.points.deleteByJob(tenantId, jobId).catch(() => stores.repo.markPointsLeft(jobId));
      if (written.fileId) await stores.repo.deleteSourceFile(written.fileId);
      if (written.objectPath) await stores.originals.remove(written.objectPath).catch(() => undefined);
    },
  };
}

/**
 * Shows the newest committed version of a file and hides the others. Uploads of one name can
 * publish at once (in this or another server): each applies the newest version it reads, then
 * reads again and repeats if a newer one was committed meanwhile, so the last write applied is
 * always the newest version's. Returns how many points it hid.
 */
export async function publishLatest(repo: IngestionRepo, points: PointsStore, tenantId: string, domain: string, filename: string): Promise<number> {
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
