import type { FastifyReply, FastifyRequest } from "fastify";
import { CancelledError, CLIENT_GONE, ServerBusyError } from "../../errors.js";

/** The load budgets of one server (docs/http-api.md "Load budgets"). */
export interface AdmissionLimits {
  /** Bytes of uploads being received or worked on at once (max_inflight_upload_mb). */
  maxInflightUploadBytes: number;
  /** The largest upload (max_upload_mb): what an upload that declares no size is counted as. */
  maxUploadBytes: number;
  /** Synchronous benchmarks, processing runs and question generations at once (max_sync_jobs). */
  maxSyncJobs: number;
  /** Background jobs waiting to run (max_queued_jobs). */
  maxQueuedJobs: number;
}

/**
 * Refuses work past the server's budgets with a 503 and Retry-After (ServerBusyError) instead of
 * taking it on and running out of memory or time for everyone: uploads are counted by their
 * declared size before their body is read, synchronous jobs by number, and a synchronous job
 * whose client disconnects is cancelled. Counts are this process's (each replica has its own).
 */
export class Admission {
  private uploadBytes = 0;
  private syncJobs = 0;

  constructor(readonly limits: AdmissionLimits) {}

  /**
   * Before an upload's body is read (onRequest): its Content-Length (the largest upload allowed
   * when it gives none) counts against the budget until its response ends. One upload alone is
   * always admitted: its size is max_upload_mb's to judge (413).
   */
  admitUpload(request: FastifyRequest, reply: FastifyReply): void {
    const declared = Number(request.headers["content-length"]);
    const bytes = Number.isFinite(declared) && declared >= 0 ? Math.min(declared, this.limits.maxUploadBytes) : this.limits.maxUploadBytes;
    if (this.uploadBytes > 0 && this.uploadBytes + bytes > this.limits.maxInflightUploadBytes) {
      throw new ServerBusyError(
        `uploads of ${megabytes(this.uploadBytes)} MB are being received or worked on, and this one would pass max_inflight_upload_mb ` +
          `(${megabytes(this.limits.maxInflightUploadBytes)} MB); retry later`,
      );
    }
    this.uploadBytes += bytes;
    reply.raw.once("close", () => (this.uploadBytes -= bytes));
  }

  /**
   * Runs a synchronous job within max_sync_jobs, with a signal that is aborted when the client
   * disconnects before its answer (the work stops instead of running on for nobody).
   */
  async runSync<T>(reply: FastifyReply, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.syncJobs >= this.limits.maxSyncJobs) {
      throw new ServerBusyError(`${this.syncJobs} synchronous jobs are running, the most max_sync_jobs allows; retry later, or send it with ?background=true`);
    }
    this.syncJobs++;
    const clientGone = watchClient(reply);
    try {
      return await work(clientGone.signal);
    } catch (error) {
      // Nobody is there to read a cancellation's answer; the error handler's 499 goes nowhere.
      if (clientGone.signal.aborted && !(error instanceof CancelledError)) throw new CancelledError(CLIENT_GONE, { cause: error });
      throw error;
    } finally {
      this.syncJobs--;
      clientGone.stopWatching();
    }
  }

  /** Before a background job is queued: refused when max_queued_jobs are already waiting. */
  checkQueueRoom(waiting: number): void {
    if (waiting >= this.limits.maxQueuedJobs) {
      throw new ServerBusyError(`${waiting} background jobs are waiting to run, the most max_queued_jobs allows; retry later`);
    }
  }
}

/**
 * A signal aborted when the client disconnects before its answer was sent; stopWatching once the
 * work is over (the answer's own end closes the response too).
 */
export function watchClient(reply: FastifyReply): { signal: AbortSignal; stopWatching(): void } {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(CLIENT_GONE);
  };
  reply.raw.once("close", onClose);
  // Gone before the watch began (while its body was read): its close event has already passed.
  if (reply.raw.socket?.destroyed) onClose();
  return { signal: controller.signal, stopWatching: () => reply.raw.off("close", onClose) };
}

const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
