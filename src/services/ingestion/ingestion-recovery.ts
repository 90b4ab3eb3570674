// Ingestions no process will finish (a killed server's, or past their deadline on a shared store):
// found, then completed when their version was committed, or failed and removed when it was not.
import { ChunkevalError, IndexFailedError } from "../../errors.js";
import { nowTimestamp, timestampMs } from "../../domain/ids.js";
import type { Owner } from "../../domain/ports/owner.js";
import { ownerGone } from "../../stores/owner.js";
import type { IngestionRepo, UnfinishedIngestion } from "../../domain/ports/ingestion.js";
import type { OriginalsStore } from "../../domain/ports/originals.js";
import type { PointsStore } from "../../stores/vectors/points-store.js";

import { publishLatest } from "./ingestion-sink.js";

/** The failure reason of an ingestion whose server stopped before it finished (found at the next start). */
export const INGESTION_INTERRUPTED = "interrupted: the server running this ingestion stopped before it finished";

/** A failed job row's error fields. */
export const failureOf = (error: ChunkevalError) => ({ errorCode: error.code, error: error.message });

/**
 * Ends an ingestion nobody will finish: a committed version is published and the job completed
 * (left for later when the collection is gone); otherwise the job is failed with `failure`,
 * atomically against a commit, and the points, version and original it wrote are removed.
 */
export async function settleAbandoned(
  repo: IngestionRepo,
  points: PointsStore | null,
  originals: OriginalsStore,
  job: UnfinishedIngestion,
  failure: ChunkevalError,
): Promise<"completed" | "failed" | "left"> {
  if (job.sourceFile?.committed) {
    // Committed: the upload succeeded and only needs publishing.
    if (!points) return "left";
    const hidden = await publishLatest(repo, points, job.tenantId, job.domain, job.filename);
    const indexed = job.sourceFile.pointCount;
    await repo.completeJob(job.id, { chunksIndexed: indexed, pointsCreated: indexed, pointsSoftDeleted: hidden }, nowTimestamp());
    return "completed";
  }
  if (!(await repo.failJobUnlessCommitted(job.id, failureOf(failure), nowTimestamp()))) return "left";
  await points?.deleteByJob(job.tenantId, job.id);
  if (job.sourceFile) {
    await repo.deleteSourceFile(job.sourceFile.id);
    await originals.remove(job.sourceFile.objectPath);
  }
  return "failed";
}

/** Which unfinished ingestions are abandoned: by their owner process (one server runs them), or by their deadline (a shared queue). */
export type AbandonedRule = (job: UnfinishedIngestion) => boolean;

/**
 * In-process ingestions (SQLite): abandoned when the instance that accepted them is not this one
 * and either its process is gone or its deadline is long past. The process id alone is not enough:
 * a server restarted in a container has the same host name and the same PID (1) as the one that
 * was killed, so its dead predecessor's ingestions look alive; by their deadline, an owner that is
 * alive has ended them itself (ABANDONED_AFTER_DEADLINE_MS).
 */
export function ownerGoneRule(me: Owner, timeoutSeconds: number, now = () => Date.now()): AbandonedRule {
  const deadlinePassed = deadlinePassedRule(timeoutSeconds, now);
  return (job) => job.owner.instance !== me.instance && (ownerGone(job.owner, me) || deadlinePassed(job));
}

/**
 * Margin past an ingestion's deadline before another process ends it: the process that accepted
 * it and the one running it end it themselves at the deadline when they are alive.
 */
export const ABANDONED_AFTER_DEADLINE_MS = 5000;

/**
 * Ingestions on a shared store (PostgreSQL), whichever process runs them: abandoned once their
 * deadline (their row's creation + `timeoutSeconds`) is ABANDONED_AFTER_DEADLINE_MS behind.
 * A live process would have committed or failed it by then; so its processes all stopped.
 */
export function deadlinePassedRule(timeoutSeconds: number, now = () => Date.now()): AbandonedRule {
  return (job) => timestampMs(job.createdAt) + timeoutSeconds * 1000 + ABANDONED_AFTER_DEADLINE_MS < now();
}

/**
 * Recovers the ingestion jobs `abandoned` says no process will finish (a killed server's, at the
 * next start; on a shared store, those whose deadline passed long enough ago). A job whose
 * version was not committed is marked failed and what it wrote is removed; one killed between
 * commit and publication has its version published and is completed. Failed jobs whose points
 * could not be removed when they failed lose them now, and versions committed whose publication
 * failed are published (and versions from before point counts were recorded are counted once).
 * `points` is null when the /v1 collection (the `chunks` table) does not exist: then no point was
 * written, unless someone removed it by hand, in which case points of tenant tables stay. Returns
 * how many jobs were marked failed.
 */
export async function recoverAbandonedIngestions(
  repo: IngestionRepo,
  points: PointsStore | null,
  originals: OriginalsStore,
  abandoned: AbandonedRule,
): Promise<number> {
  let failed = 0;
  const interrupted = new IndexFailedError(INGESTION_INTERRUPTED);
  for (const job of await repo.unfinishedJobs()) {
    if (abandoned(job) && (await settleAbandoned(repo, points, originals, job, interrupted)) === "failed") failed++;
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
