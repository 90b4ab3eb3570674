import { ownerGone, type Owner } from "../owner.js";
import type { Db } from "./database.js";
import { jobFromRow, type JobRow } from "../rows.js";
import type { JobRecord, JobsFilter, JobStatus } from "../../domain/ports/jobs.js";
export type { JobRecord, JobStatus };

/** Rows of `jobs`: the persistent job table of background work. */
export class SqliteJobsRepo {
  constructor(private readonly db: Db) {}

  insert(job: { jobId: string; jobType: string; params: unknown; createdAt: string }, owner: Owner, nowMs = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO jobs (id, job_type, status, params_json, created_at, owner_instance, owner_pid, owner_host, heartbeat_at_ms)
         VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
      )
      .run(job.jobId, job.jobType, JSON.stringify(job.params), job.createdAt, owner.instance, owner.pid, owner.host, nowMs);
  }

  get(id: string): JobRecord | null {
    const row = this.db.prepare(`SELECT * FROM jobs WHERE id = ?`).get(id) as JobRow | undefined;
    return row ? jobFromRow(row) : null;
  }

  markRunning(id: string, at: string): void {
    this.db.prepare(`UPDATE jobs SET status = 'running', started_at = ? WHERE id = ? AND status = 'pending'`).run(at, id);
  }

  setProgress(id: string, progress: string): void {
    this.db.prepare(`UPDATE jobs SET progress = ? WHERE id = ? AND status = 'running'`).run(progress, id);
  }

  /** Completes an unfinished job; false when it had already ended (a terminal status is final). */
  complete(id: string, result: unknown, at: string): boolean {
    return (
      this.db
        .prepare(`UPDATE jobs SET status = 'completed', result_json = ?, finished_at = ? WHERE id = ? AND status IN ('pending', 'running')`)
        .run(JSON.stringify(result), at, id).changes > 0
    );
  }

  /** Fails an unfinished job; false when it had already ended (a terminal status is final). */
  fail(id: string, error: string, at: string): boolean {
    return (
      this.db.prepare(`UPDATE jobs SET status = 'failed', error = ?, finished_at = ? WHERE id = ? AND status IN ('pending', 'running')`).run(error, at, id)
        .changes > 0
    );
  }

  /** Tells other servers that `owner`'s unfinished jobs are still being worked on. */
  heartbeat(owner: Owner, nowMs = Date.now()): void {
    this.db.prepare(`UPDATE jobs SET heartbeat_at_ms = ? WHERE owner_instance = ? AND status IN ('pending', 'running')`).run(nowMs, owner.instance);
  }

  /** Marks failed every unfinished job of `owner` (its server shuts down); returns how many. */
  failOwned(owner: Owner, error: string, at: string): number {
    return this.db
      .prepare(`UPDATE jobs SET status = 'failed', error = ?, finished_at = ? WHERE owner_instance = ? AND status IN ('pending', 'running')`)
      .run(error, at, owner.instance).changes;
  }

  /**
   * Marks failed the unfinished jobs whose owner is gone: its process no longer exists on this
   * machine, or (any machine) it has not sent a heartbeat for `staleMs`. Another live server's
   * jobs are left alone. Returns how many.
   */
  failAbandoned(me: Owner, staleMs: number, error: string, at: string, nowMs = Date.now()): number {
    return this.db
      .transaction(() => {
        const rows = this.db
          .prepare(`SELECT id, owner_instance, owner_pid, owner_host, heartbeat_at_ms FROM jobs WHERE status IN ('pending', 'running')`)
          .all() as Array<{ id: string; owner_instance: string | null; owner_pid: number | null; owner_host: string | null; heartbeat_at_ms: number | null }>;
        let failed = 0;
        for (const r of rows) {
          if (r.owner_instance === me.instance) continue;
          const stale = r.heartbeat_at_ms === null || nowMs - r.heartbeat_at_ms > staleMs;
          if (ownerGone({ pid: r.owner_pid, host: r.owner_host }, me) || stale) failed += this.fail(r.id, error, at) ? 1 : 0;
        }
        return failed;
      })
      .immediate();
  }

  /** Newest first, optionally filtered by type and status. */
  list(filter: JobsFilter, offset: number, limit: number): { items: JobRecord[]; total: number } {
    const where: string[] = [];
    const args: string[] = [];
    if (filter.jobType) (where.push("job_type = ?"), args.push(filter.jobType));
    if (filter.status) (where.push("status = ?"), args.push(filter.status));
    for (const type of filter.excludeJobTypes ?? []) (where.push("job_type <> ?"), args.push(type));
    const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
    const rows = this.db.prepare(`SELECT * FROM jobs ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(...args, limit, offset) as JobRow[];
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM jobs ${clause}`).get(...args) as { n: number };
    return { items: rows.map(jobFromRow), total: n };
  }
}
