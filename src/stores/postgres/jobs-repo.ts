import type { JobRecord, JobsFilter, JobsRepo } from "../../domain/ports/jobs.js";
import { ownerGone, type Owner } from "../owner.js";
import type { Executor } from "./executor.js";
import { jobFromRow, type JobRow } from "../rows.js";

/** Rows of `jobs`: the persistent job table of background work. A terminal status is final. */
export class PostgresJobsRepo implements JobsRepo {
  constructor(private readonly db: Executor) {}

  async insert(job: { jobId: string; jobType: string; params: unknown; createdAt: string }, owner: Owner, nowMs = Date.now()): Promise<void> {
    await this.db.query(
      `INSERT INTO jobs (id, job_type, status, params_json, created_at, owner_instance, owner_pid, owner_host, heartbeat_at_ms)
       VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8)`,
      [job.jobId, job.jobType, JSON.stringify(job.params), job.createdAt, owner.instance, owner.pid, owner.host, nowMs],
    );
  }

  async get(id: string): Promise<JobRecord | null> {
    const { rows } = await this.db.query<JobRow>(`SELECT * FROM jobs WHERE id = $1`, [id]);
    return rows[0] ? jobFromRow(rows[0]) : null;
  }

  async markRunning(id: string, at: string): Promise<void> {
    await this.db.query(`UPDATE jobs SET status = 'running', started_at = $1 WHERE id = $2 AND status = 'pending'`, [at, id]);
  }

  async setProgress(id: string, progress: string): Promise<void> {
    await this.db.query(`UPDATE jobs SET progress = $1 WHERE id = $2 AND status = 'running'`, [progress, id]);
  }

  async complete(id: string, result: unknown, at: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET status = 'completed', result_json = $1, finished_at = $2 WHERE id = $3 AND status IN ('pending', 'running')`,
      [JSON.stringify(result), at, id],
    );
    return rowCount > 0;
  }

  async fail(id: string, error: string, at: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET status = 'failed', error = $1, finished_at = $2 WHERE id = $3 AND status IN ('pending', 'running')`,
      [error, at, id],
    );
    return rowCount > 0;
  }

  async heartbeat(owner: Owner, nowMs = Date.now()): Promise<void> {
    await this.db.query(`UPDATE jobs SET heartbeat_at_ms = $1 WHERE owner_instance = $2 AND status IN ('pending', 'running')`, [nowMs, owner.instance]);
  }

  async failOwned(owner: Owner, error: string, at: string): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET status = 'failed', error = $1, finished_at = $2 WHERE owner_instance = $3 AND status IN ('pending', 'running')`,
      [error, at, owner.instance],
    );
    return rowCount;
  }

  /**
   * Marks failed the in-process (not `queued`: their leases judge those) unfinished jobs whose owner is gone (its process no longer exists on this
   * machine) or silent for `staleMs`; another live server's jobs are left alone. The rows are
   * locked while judged, so a heartbeat or completion meanwhile waits and then finds them failed.
   */
  failAbandoned(me: Owner, staleMs: number, error: string, at: string, nowMs = Date.now()): Promise<number> {
    return this.db.atomic(async (tx) => {
      const { rows } = await tx.query<{
        id: string;
        owner_instance: string | null;
        owner_pid: number | null;
        owner_host: string | null;
        heartbeat_at_ms: number | null;
      }>(`SELECT id, owner_instance, owner_pid, owner_host, heartbeat_at_ms FROM jobs WHERE status IN ('pending', 'running') AND NOT queued FOR UPDATE`);
      const abandoned = rows.filter((r) => {
        if (r.owner_instance === me.instance) return false;
        const stale = r.heartbeat_at_ms === null || nowMs - r.heartbeat_at_ms > staleMs;
        return ownerGone({ pid: r.owner_pid, host: r.owner_host }, me) || stale;
      });
      if (abandoned.length === 0) return 0;
      const { rowCount } = await tx.query(
        `UPDATE jobs SET status = 'failed', error = $1, finished_at = $2 WHERE id = ANY($3::text[]) AND status IN ('pending', 'running')`,
        [error, at, abandoned.map((r) => r.id)],
      );
      return rowCount;
    });
  }

  async list(filter: JobsFilter, offset: number, limit: number): Promise<{ items: JobRecord[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.jobType) (args.push(filter.jobType), where.push(`job_type = $${args.length}`));
    if (filter.status) (args.push(filter.status), where.push(`status = $${args.length}`));
    if (filter.excludeJobTypes?.length) (args.push([...filter.excludeJobTypes]), where.push(`job_type <> ALL($${args.length}::text[])`));
    const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
    const { rows } = await this.db.query<JobRow>(
      `SELECT * FROM jobs ${clause} ORDER BY created_at COLLATE "C" DESC, seq DESC LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, limit, offset],
    );
    const total = (await this.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs ${clause}`, args)).rows[0]!.n;
    return { items: rows.map(jobFromRow), total };
  }
}
