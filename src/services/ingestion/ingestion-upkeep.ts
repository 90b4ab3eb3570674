// The /v1 ingestions no process is left to end (their queue job failed after its attempts, or every
// process involved died), ended by whoever notices: at `serve`'s start, and every so often by a
// process that runs jobs, so that a job row is never left `running`. Which ingestion counts as
// abandoned depends on who may end it: on a shared store (PostgreSQL) any process once its deadline
// has passed; on SQLite another process once the instance that ran it is gone (ingestion-recovery.ts).
import type { JobQueue } from "../../domain/ports/job-queue.js";
import type { IngestionRepo } from "../../domain/ports/ingestion.js";
import type { OriginalsStore } from "../../domain/ports/originals.js";
import type { Owner } from "../../domain/ports/owner.js";
import type { PointsStore } from "../../stores/vectors/points-store.js";
import { deadlinePassedRule, ownerGoneRule, recoverAbandonedIngestions } from "./ingestion-recovery.js";

export interface IngestionUpkeepDeps {
  repo: IngestionRepo;
  /** The /v1 points, opened on first use. */
  points: () => Promise<PointsStore>;
  originals: OriginalsStore;
  owner: Owner;
  /** Whether every process shares one job queue (PostgreSQL). */
  sharedQueue: boolean;
  /** The ingestion window (`ingestion.timeout_seconds`). */
  timeoutSeconds: number;
}

/** The sweep runs every quarter of the ingestion window, at least every 30 s and at most every second. */
export function sweepIntervalMs(timeoutSeconds: number): number {
  return Math.min(30_000, Math.max(1000, (timeoutSeconds * 1000) / 4));
}

export function ingestionUpkeep(deps: IngestionUpkeepDeps) {
  const abandoned = deps.sharedQueue ? deadlinePassedRule(deps.timeoutSeconds) : ownerGoneRule(deps.owner, deps.timeoutSeconds);
  /** Ends the abandoned ingestions; how many it ended (none while the points store is unreachable). */
  const recover = async (): Promise<number> => {
    const points = await deps.points();
    const state = await points.readiness();
    if (state.unreachable) return 0;
    return recoverAbandonedIngestions(deps.repo, state.ready ? points : null, deps.originals, abandoned);
  };
  /** The queue with the sweep running beside it for as long as the queue runs. */
  const withSweep = (queue: JobQueue): JobQueue => {
    const sweep = setInterval(() => void recover().catch(() => undefined), sweepIntervalMs(deps.timeoutSeconds)).unref();
    return {
      enqueue: (request) => queue.enqueue(request),
      cancelForDocument: (documentId) => queue.cancelForDocument(documentId),
      cancel: (jobId, reason) => queue.cancel(jobId, reason),
      shutdown: async () => {
        clearInterval(sweep);
        await queue.shutdown();
      },
    };
  };
  return { recover, withSweep };
}
