import type pg from "pg";
import {
  ChildJobFailed,
  deletedDocumentReason,
  type ChildJobs,
  type JobHandlers,
  type JobQueue,
  type JobQueueOptions,
  type JobRequest,
  type SharedCallCount,
} from "../../domain/ports/job-queue.js";
import type { JobRecord } from "../../domain/ports/jobs.js";
import type { Owner } from "../../domain/ports/owner.js";
import { newId, nowTimestamp } from "../../domain/ids.js";
import { CancelledError, describeError, ValidationError } from "../../errors.js";
import { jobFromRow, type JobRow } from "../rows.js";
import { createPool } from "./executor.js";

/** The channel an enqueue notifies, so idle processes claim a new job at once instead of at their next sweep. */
const CHANNEL = "chunkeval_jobs";
/** A job claimed this many times without finishing (its process died each time) is failed instead of claimed again. */
export const MAX_JOB_ATTEMPTS = 3;
/** The server's clock in milliseconds: leases are judged on one clock whatever host claimed them. */
const NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;
/** How often a job waiting for its child jobs reads their rows. */
const CHILD_POLL_MS = 50;
/** The unfinished queued children of a job (its id is $1). */
const UNFINISHED_CHILDREN = `queued AND status IN ('pending', 'running') AND params_json::jsonb ->> 'parent_job_id' = $1`;
/** A job's row while it is still one claim's: the job's id ($1), the claiming process's lease owner ($2) and the claim's attempt ($3). */
const THIS_CLAIM = `id = $1 AND lease_owner = $2 AND attempts = $3 AND status = 'running'`;

export function attemptsExhaustedError(attempts: number): string {
  return `failed: the process running this job stopped without finishing it ${attempts} times (its lease expired each time); not retried`;
}

interface Claimed {
  id: string;
  job_type: string;
  input_json: string | null;
  attempts: number;
  /** The job whose child this is (a benchmark's processing unit), or null. */
  parent_job_id: string | null;
}

/**
 * A claim of a job: its row is this claim's while it is `running` with this process's lease owner
 * and this attempt number. The owner alone names the process, not the claim: a process whose
 * lease lapsed while it was alive (stalled past it) would otherwise take a later claim of the
 * same job, by another process or itself, for its own and finish or fail it.
 */
type Lease = Pick<Claimed, "id" | "attempts">;

/** A job given back to the queue because another claim of its parent job replaced this process's (the new attempt adopts it). */
class GivenBack extends CancelledError {}

/**
 * The PostgreSQL queue: jobs are rows of `jobs` (`queued`, with their input), claimed with
 * `FOR UPDATE SKIP LOCKED` under a lease this process renews while the job runs. LISTEN/NOTIFY
 * wakes idle processes when a job is enqueued; a sweep every third of a lease claims what nobody
 * was woken for and the jobs whose lease expired (their process was killed): that is how another
 * process takes over a killed one's job. A job claimed more than MAX_JOB_ATTEMPTS times is failed.
 */
export class PostgresJobQueue implements JobQueue {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Every job this process is running (top-level and its parents' inline children): never claimed again here while it runs. */
  private readonly executing = new Set<string>();
  private listener: pg.PoolClient | undefined;
  private sweep: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private closed = false;

  static async open(uri: string, owner: Owner, handlers: JobHandlers, options: JobQueueOptions): Promise<PostgresJobQueue> {
    const queue = new PostgresJobQueue(createPool(uri, "queue"), `${owner.host}:${owner.pid}:${owner.instance}`, owner, handlers, options);
    if (options.consume) await queue.startConsuming();
    return queue;
  }

  private constructor(
    private readonly pool: pg.Pool,
    private readonly leaseOwner: string,
    private readonly owner: Owner,
    private readonly handlers: JobHandlers,
    private readonly options: JobQueueOptions,
  ) {}

  private async startConsuming(): Promise<void> {
    this.listener = await this.pool.connect();
    this.listener.on("notification", () => this.pump());
    // A lost listening connection leaves the sweep to claim jobs; the process keeps working.
    this.listener.on("error", () => undefined);
    await this.listener.query(`LISTEN ${CHANNEL}`);
    this.sweep = setInterval(() => this.pump(), Math.max(100, Math.floor(this.options.leaseMs / 3))).unref();
    this.pump();
  }

  async enqueue(request: JobRequest): Promise<JobRecord> {
    const job = await this.insert(request, request.params);
    await this.pool.query(`SELECT pg_notify($1, $2)`, [CHANNEL, job.jobId]);
    return job;
  }

  /** Records a pending queued job (`params`: what `GET /jobs` shows of it). */
  private async insert(request: JobRequest, params: unknown): Promise<JobRecord> {
    if (!this.handlers[request.jobType]) throw new ValidationError(`unknown job type: ${request.jobType}`);
    const jobId = newId("job");
    const { rows } = await this.pool.query<JobRow>(
      `INSERT INTO jobs (id, job_type, status, params_json, input_json, created_at, queued, owner_instance, owner_pid, owner_host)
       VALUES ($1, $2, 'pending', $3, $4, $5, true, $6, $7, $8) RETURNING *`,
      [
        jobId,
        request.jobType,
        JSON.stringify(params),
        JSON.stringify(request.input ?? null),
        nowTimestamp(),
        this.owner.instance,
        this.owner.pid,
        this.owner.host,
      ],
    );
    return jobFromRow(rows[0]!);
  }

  /** Claims and starts jobs while slots are free; one pass at a time, another right after when asked meanwhile. */
  private pump(): void {
    if (this.closed || !this.listener) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = (async () => {
      do {
        this.pumpAgain = false;
        while (!this.closed && this.running.size < this.options.concurrency) {
          const job = await this.claim();
          if (!job) break;
          this.start(job);
        }
      } while (this.pumpAgain && !this.closed);
    })()
      .catch(() => undefined) // a database that cannot be reached now is tried again at the next sweep
      .finally(() => (this.pumping = undefined));
  }

  /**
   * The oldest job that is pending or whose lease expired (of `parentId`'s children only, when
   * given), now this process's; one claimed too often is failed on the way, its children cancelled.
   */
  private async claim(parentId?: string): Promise<Claimed | undefined> {
    for (;;) {
      const children = parentId === undefined ? "" : ` AND params_json::jsonb ->> 'parent_job_id' = $5`;
      // Not a job this process still runs: its lease lapsing while this process stalled does not make it another's work here.
      const { rows } = await this.pool.query<Claimed>(
        `UPDATE jobs SET status = 'running', started_at = COALESCE(started_at, $2), lease_owner = $1,
           lease_expires_at_ms = ${NOW_MS} + $3, attempts = attempts + 1
         WHERE id = (SELECT id FROM jobs WHERE queued AND (status = 'pending' OR (status = 'running' AND lease_expires_at_ms < ${NOW_MS}))
                       AND id <> ALL($4::text[])${children}
                     ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING id, job_type, input_json, attempts, params_json::jsonb ->> 'parent_job_id' AS parent_job_id`,
        [this.leaseOwner, nowTimestamp(), this.options.leaseMs, [...this.executing], ...(parentId === undefined ? [] : [parentId])],
      );
      const job = rows[0];
      if (!job || job.attempts <= MAX_JOB_ATTEMPTS) return job;
      await this.finish(job, "failed", attemptsExhaustedError(job.attempts - 1));
      await this.cancelChildren(job.id, `cancelled: its parent job ${job.id} failed`);
    }
  }

  private start(job: Claimed): void {
    const controller = new AbortController();
    const done = this.execute(job, controller).finally(() => {
      this.running.delete(job.id);
      this.pump();
    });
    this.running.set(job.id, { controller, done });
  }

  /**
   * The chat-model calls of the run of work `job` belongs to: counted on its top-level job's row
   * (a unit's parent; its own otherwise), whatever the attempt.
   */
  private callCount(job: Claimed): SharedCallCount {
    const counted = job.parent_job_id ?? job.id;
    const take = async (max: number) =>
      (await this.pool.query(`UPDATE jobs SET llm_calls = llm_calls + 1 WHERE id = $1 AND llm_calls < $2`, [counted, max])).rowCount === 1;
    return { take };
  }

  /** Runs a claimed job to its end under its lease, renewed meanwhile: finished, or given back when this process shuts down. */
  private async execute(job: Claimed, controller: AbortController): Promise<void> {
    this.executing.add(job.id);
    const renew = setInterval(
      () =>
        void this.pool
          .query(`UPDATE jobs SET lease_expires_at_ms = ${NOW_MS} + $4 WHERE ${THIS_CLAIM}`, [job.id, this.leaseOwner, job.attempts, this.options.leaseMs])
          // Not ours any more (failed by a delete, or taken over after a missed renewal): stop working on it.
          .then(({ rowCount }) => rowCount === 0 && controller.abort(new CancelledError("the job is no longer this process's")))
          .catch(() => undefined), // a busy database skips one renewal; the lease allows for two more
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
    const onProgress = (e: { strategy?: string; stage: string; message: string }) =>
      void this.pool
        .query(`UPDATE jobs SET progress = $4 WHERE ${THIS_CLAIM}`, [job.id, this.leaseOwner, job.attempts, `${e.strategy ?? e.stage}: ${e.message}`])
        .catch(() => undefined);
    const children: ChildJobs = { run: (requests, options) => this.runChildren(job, requests, options) };
    await (async () => {
      const handler = this.handlers[job.job_type];
      if (!handler) return this.finish(job, "failed", `unknown job type: ${job.job_type}`);
      try {
        const input = job.input_json === null ? null : JSON.parse(job.input_json);
        const claim = { jobId: job.id, leaseOwner: this.leaseOwner, attempt: job.attempts };
        const result = await handler(input, { signal: controller.signal, onProgress, children, claim, calls: this.callCount(job) });
        await this.finish(job, "completed", result);
      } catch (error) {
        // Shutting down, or its parent taken over by another claim: the job goes back to the queue, not failed.
        if (this.closed || controller.signal.reason instanceof GivenBack) await this.release(job);
        else await this.finish(job, "failed", describeError(error));
      }
    })()
      .catch(() => undefined) // the lease then expires and another process takes the job over
      .finally(() => {
        clearInterval(renew);
        this.executing.delete(job.id);
      });
  }

  /**
   * A job's work split into child jobs (a benchmark's processing units): queued rows whose params
   * name the parent (`parent_job_id`), claimed by any process under the same lease rules. Children
   * an earlier attempt of the parent left (its process was killed), unfinished or finished, are
   * adopted, not queued again. The waiting parent takes part: it holds one of its process's slots while it
   * waits, and with one slot per worker a parent that only waited would leave its own process
   * idle and all the work to the others. So while its children are unfinished it claims them
   * itself through the same claim, at most `concurrency` at once, not counted against the slots.
   * The first failed child fails the call (ChildJobFailed), the others cancelled; so does a
   * cancelled parent, except when this process shuts down (the parent is released) or another
   * claim of the parent replaced this one (this process's lease lapsed while it was alive): then
   * the unfinished children are left to the parent's current attempt, which adopts them, and the
   * ones running here are given back to the queue.
   */
  private async runChildren(parent: Lease, requests: JobRequest[], options: { signal?: AbortSignal; concurrency: number }): Promise<unknown[]> {
    const { signal } = options;
    const parentId = parent.id;
    const ids = await this.queueChildren(parentId, requests);
    const inline = new Map<Promise<void>, AbortController>();
    let stopped: CancelledError = new CancelledError(`cancelled: its parent job ${parentId} stopped`);
    try {
      for (;;) {
        if (signal?.aborted) {
          if (!this.closed && (await this.replaced(parent))) stopped = new GivenBack(`given back: another claim of its parent job ${parentId} runs it`);
          else if (!this.closed) await this.cancelChildren(parentId, stopped.message);
          throw signal.reason;
        }
        const { rows } = await this.pool.query<{ id: string; status: string; result_json: string | null; error: string | null }>(
          `SELECT id, status, result_json, error FROM jobs WHERE id = ANY($1::text[])`,
          [ids],
        );
        const byId = new Map(rows.map((r) => [r.id, r]));
        const failed = ids.findIndex((id) => byId.get(id)?.status !== "completed" && byId.get(id)?.status !== "pending" && byId.get(id)?.status !== "running");
        if (failed >= 0) {
          await this.cancelChildren(parentId, `cancelled: another child of job ${parentId} failed`);
          throw new ChildJobFailed(failed, byId.get(ids[failed]!)?.error ?? "its job row is gone");
        }
        if (ids.every((id) => byId.get(id)!.status === "completed")) return ids.map((id) => JSON.parse(byId.get(id)!.result_json ?? "null"));
        while (!this.closed && !signal?.aborted && inline.size < options.concurrency) {
          const child = await this.claim(parentId);
          if (!child) break;
          const controller = new AbortController();
          const run: Promise<void> = this.execute(child, controller).finally(() => inline.delete(run));
          inline.set(run, controller);
        }
        await Promise.race([new Promise((r) => setTimeout(r, CHILD_POLL_MS)), ...inline.keys()]);
      }
    } finally {
      // After the cancellation above, so that the children's rows keep its reason; on shutdown they go back to the queue.
      inline.forEach((controller) => controller.abort(stopped));
      await Promise.all(inline.keys());
    }
  }

  /**
   * The ids of `parentId`'s children for these requests: those of an earlier attempt adopted, the
   * others queued; the earlier ones no longer requested and unfinished, cancelled. A finished one is
   * adopted too: a unit another process completed between this attempt's planning (when its index
   * was not built yet) and this call would otherwise be queued and built a second time.
   */
  private async queueChildren(parentId: string, requests: JobRequest[]): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string; params_json: string; status: string }>(
      `SELECT id, params_json, status FROM jobs WHERE queued AND status IN ('pending', 'running', 'completed') AND params_json::jsonb ->> 'parent_job_id' = $1`,
      [parentId],
    );
    // Of several rows for one unit (a finished one and a copy an older version queued again), the one
    // still running or waiting is adopted; every other unfinished row not adopted is cancelled.
    const unfinishedFirst = (r: { status: string }) => (r.status === "completed" ? 1 : 0);
    const earlier = new Map<string, { id: string; status: string }>();
    for (const row of [...rows].sort((a, b) => unfinishedFirst(a) - unfinishedFirst(b))) if (!earlier.has(row.params_json)) earlier.set(row.params_json, row);
    const adopted = new Set<string>();
    const ids: string[] = [];
    for (const request of requests) {
      const params = JSON.stringify({ ...(request.params as object), parent_job_id: parentId });
      const row = earlier.get(params);
      if (row) adopted.add(row.id);
      ids.push(row?.id ?? (await this.insert(request, JSON.parse(params))).jobId);
    }
    for (const stale of rows)
      if (!adopted.has(stale.id) && stale.status !== "completed") await this.failJob(stale.id, `cancelled: no longer needed by its parent job ${parentId}`);
    await this.pool.query(`SELECT pg_notify($1, $2)`, [CHANNEL, parentId]);
    return ids;
  }

  /**
   * Whether another claim replaced this one of a job: its row is pending or running, not under
   * this claim (a failed, finished or deleted row means the job was stopped). A row that cannot be
   * read now counts as replaced: failing the children of a parent another attempt runs would
   * fail that attempt, whereas children left alone merely run to their end.
   */
  private async replaced(lease: Lease): Promise<boolean> {
    const row = await this.pool
      .query<{ status: string; lease_owner: string | null; attempts: number }>(`SELECT status, lease_owner, attempts FROM jobs WHERE id = $1`, [lease.id])
      .then(
        ({ rows }) => rows[0] ?? null,
        () => undefined,
      );
    if (row === undefined) return true;
    if (row === null) return false;
    return row.status === "pending" || (row.status === "running" && (row.lease_owner !== this.leaseOwner || row.attempts !== lease.attempts));
  }

  /** Fails a job's unfinished children; a process running one notices at its next lease renewal and stops. */
  private async cancelChildren(parentId: string, reason: string): Promise<void> {
    await this.pool.query(
      `UPDATE jobs SET status = 'failed', error = $2, finished_at = $3, lease_owner = NULL, lease_expires_at_ms = NULL WHERE ${UNFINISHED_CHILDREN}`,
      [parentId, reason, nowTimestamp()],
    );
  }

  /** Ends a job under this claim; nothing happens when the claim is no longer the job's (failed by a delete, taken over). */
  private async finish(lease: Lease, status: "completed" | "failed", outcome: unknown): Promise<void> {
    const [result, error] = status === "completed" ? [JSON.stringify(outcome), null] : [null, String(outcome)];
    await this.pool.query(
      `UPDATE jobs SET status = $4, result_json = $5, error = $6, finished_at = $7, lease_owner = NULL, lease_expires_at_ms = NULL WHERE ${THIS_CLAIM}`,
      [lease.id, this.leaseOwner, lease.attempts, status, result, error, nowTimestamp()],
    );
  }

  /** Gives a job back (this process shuts down, or its parent's attempt here was replaced): pending again, this claim not counted, another process is woken. */
  private async release(lease: Lease): Promise<void> {
    await this.pool.query(
      `UPDATE jobs SET status = 'pending', lease_owner = NULL, lease_expires_at_ms = NULL, attempts = attempts - 1, progress = NULL WHERE ${THIS_CLAIM}`,
      [lease.id, this.leaseOwner, lease.attempts],
    );
    await this.pool.query(`SELECT pg_notify($1, $2)`, [CHANNEL, lease.id]);
  }

  /**
   * Fails the unfinished queued jobs about a deleted document, in whichever process they are;
   * the process running one notices at its next lease renewal and stops.
   */
  async cancelForDocument(documentId: string): Promise<void> {
    const { rows } = await this.pool.query<{ id: string; params_json: string }>(
      `SELECT id, params_json FROM jobs WHERE queued AND status IN ('pending', 'running') AND params_json::jsonb ->> 'document_id' = $1`,
      [documentId],
    );
    for (const row of rows) {
      const params = JSON.parse(row.params_json) as { document_name?: string };
      const reason = deletedDocumentReason(params.document_name ?? null, documentId);
      await this.failJob(row.id, reason);
      this.running.get(row.id)?.controller.abort(new CancelledError(reason));
    }
  }

  /** Fails one unfinished job and its unfinished children; the process running it stops at once here, elsewhere at its next lease renewal. */
  async cancel(jobId: string, reason: string): Promise<void> {
    await this.failJob(jobId, reason);
    await this.cancelChildren(jobId, reason);
    this.running.get(jobId)?.controller.abort(new CancelledError(reason));
  }

  /** Fails an unfinished job, whoever holds it. */
  private async failJob(id: string, reason: string): Promise<void> {
    await this.pool.query(
      `UPDATE jobs SET status = 'failed', error = $2, finished_at = $3, lease_owner = NULL, lease_expires_at_ms = NULL
       WHERE id = $1 AND status IN ('pending', 'running')`,
      [id, reason, nowTimestamp()],
    );
  }

  /** Stops claiming, stops the running jobs and gives them back to the queue, then closes the connections. */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweep);
    await this.pumping;
    const inFlight = [...this.running.values()];
    for (const r of inFlight) r.controller.abort(new CancelledError("interrupted: this process is shutting down"));
    await Promise.all(inFlight.map((r) => r.done));
    this.listener?.release();
    await this.pool.end();
  }
}
