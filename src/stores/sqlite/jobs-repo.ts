import type { Db } from "./database.js";

export type JobStatus = "pending" | "running" | "completed" | "failed";

export interface JobRecord {
  jobId: string;
  jobType: string;
  status: JobStatus;
  params: unknown;
  result: unknown;
  error: string | null;
  progress: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

interface JobRow {
  id: string;
  job_type: string;
  status: JobStatus;
  params_json: string;
  result_json: string | null;
  error: string | null;
  progress: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

function toJob(r: JobRow): JobRecord {
  return {
    jobId: r.id,
    jobType: r.job_type,
    status: r.status,
    params: JSON.parse(r.params_json),
    result: r.result_json === null ? null : JSON.parse(r.result_json),
    error: r.error,
    progress: r.progress,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

/** Rows of `jobs`: the persistent job table of background work. */
export class JobsRepo {
  constructor(private readonly db: Db) {}

  insert(job: { jobId: string; jobType: string; params: unknown; createdAt: string }): void {
    this.db
      .prepare(`INSERT INTO jobs (id, job_type, status, params_json, created_at) VALUES (?, ?, 'pending', ?, ?)`)
      .run(job.jobId, job.jobType, JSON.stringify(job.params), job.createdAt);
  }

  get(id: string): JobRecord | null {
    const row = this.db.prepare(`SELECT * FROM jobs WHERE id = ?`).get(id) as JobRow | undefined;
    return row ? toJob(row) : null;
  }

  markRunning(id: string, at: string): void {
    this.db.prepare(`UPDATE jobs SET status = 'running', started_at = ? WHERE id = ? AND status = 'pending'`).run(at, id);
  }

  setProgress(id: string, progress: string): void {
    this.db.prepare(`UPDATE jobs SET progress = ? WHERE id = ?`).run(progress, id);
  }

  complete(id: string, result: unknown, at: string): void {
    this.db.prepare(`UPDATE jobs SET status = 'completed', result_json = ?, finished_at = ? WHERE id = ?`).run(JSON.stringify(result), at, id);
  }

  fail(id: string, error: string, at: string): void {
    this.db.prepare(`UPDATE jobs SET status = 'failed', error = ?, finished_at = ? WHERE id = ?`).run(error, at, id);
  }

  /** Marks every pending or running job failed; returns how many. */
  failUnfinished(error: string, at: string): number {
    return this.db.prepare(`UPDATE jobs SET status = 'failed', error = ?, finished_at = ? WHERE status IN ('pending', 'running')`).run(error, at).changes;
  }

  /** Newest first, optionally filtered by type and status. */
  list(filter: { jobType?: string; status?: string }, offset: number, limit: number): { items: JobRecord[]; total: number } {
    const where: string[] = [];
    const args: string[] = [];
    if (filter.jobType) (where.push("job_type = ?"), args.push(filter.jobType));
    if (filter.status) (where.push("status = ?"), args.push(filter.status));
    const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
    const rows = this.db.prepare(`SELECT * FROM jobs ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(...args, limit, offset) as JobRow[];
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM jobs ${clause}`).get(...args) as { n: number };
    return { items: rows.map(toJob), total: n };
  }
}
