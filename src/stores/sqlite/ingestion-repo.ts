import type { Owner } from "../owner.js";
import type { Db } from "./database.js";
import { ingestionJobFromRow, type IngestionJobRow } from "../rows.js";
import type { IngestionJob, SourceFile, SourceFileDeletion, UnfinishedIngestion } from "../../domain/ports/ingestion.js";
export type { IngestionJob, SourceFile, UnfinishedIngestion };

/** Source files and ingestion jobs of the /v1 surface; every read is by tenant. */
export class SqliteIngestionRepo {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in an immediate transaction: it may read and then write while other processes write too. */
  private immediate<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Gives the file the next version of its name and records it, uncommitted, for `jobId`; one
   * immediate transaction and a unique index make concurrent uploads get 1, 2, 3... (never twice).
   */
  allocateSourceFile(f: SourceFile, jobId: string): number {
    return this.immediate(() => {
      const { v } = this.db
        .prepare(`SELECT COALESCE(MAX(version), 0) + 1 AS v FROM source_files WHERE tenant_id = ? AND domain = ? AND filename = ?`)
        .get(f.tenantId, f.domain, f.filename) as { v: number };
      this.db
        .prepare(
          `INSERT INTO source_files (id, tenant_id, domain, filename, version, content_hash, object_path, created_at, committed)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)`,
        )
        .run(f.id, f.tenantId, f.domain, f.filename, v, f.contentHash, f.objectPath, f.createdAt);
      this.db.prepare(`UPDATE ingestion_jobs SET source_file_id = ? WHERE id = ?`).run(f.id, jobId);
      return v;
    });
  }

  /**
   * Commits the file's version, unless its job is no longer running (it timed out or was
   * recovered meanwhile): then nothing changes and false is returned.
   */
  commitSourceFile(fileId: string, jobId: string, pointCount: number): boolean {
    return this.immediate(() => {
      if (!this.db.prepare(`SELECT 1 FROM ingestion_jobs WHERE id = ? AND status = 'running'`).get(jobId)) return false;
      this.db.prepare(`UPDATE source_files SET committed = 1, point_count = ? WHERE id = ?`).run(pointCount, fileId);
      return true;
    });
  }

  /** Completes a running job (its version is committed and published); a failed job stays failed. */
  completeJob(id: string, outcome: { chunksIndexed: number; pointsCreated: number; pointsSoftDeleted: number }, at: string): boolean {
    return (
      this.db
        .prepare(
          `UPDATE ingestion_jobs SET status = 'completed', chunks_indexed = ?, points_created = ?, points_soft_deleted = ?, finished_at = ?
           WHERE id = ? AND status = 'running'`,
        )
        .run(outcome.chunksIndexed, outcome.pointsCreated, outcome.pointsSoftDeleted, at, id).changes > 0
    );
  }

  /** Records that a version's points were made live in the vector store (after setLiveVersion). */
  markPublished(tenantId: string, domain: string, filename: string, version: number): void {
    this.db
      .prepare(`UPDATE source_files SET published = 1 WHERE tenant_id = ? AND domain = ? AND filename = ? AND version = ?`)
      .run(tenantId, domain, filename, version);
  }

  /**
   * One page of a tenant's live points (each file name's newest published version), in file
   * name, version and chunk order, worked out from the versions' point counts in one query:
   * the files the page touches with the range of chunk indexes it takes from each, and the
   * total. A second query counts only when the page is past the end.
   */
  livePointPage(
    tenantId: string,
    filter: { domain?: string; sourceFileId?: string },
    offset: number,
    limit: number,
  ): { slices: Array<{ fileId: string; from: number; to: number }>; total: number } {
    const live = `
      SELECT f.id, f.domain, f.filename, f.version, COALESCE(f.point_count, 0) AS n FROM source_files f
      WHERE f.tenant_id = @tenant AND f.published = 1 AND (@domain IS NULL OR f.domain = @domain) AND (@file IS NULL OR f.id = @file)
        AND f.version = (SELECT MAX(g.version) FROM source_files g
                         WHERE g.tenant_id = f.tenant_id AND g.domain = f.domain AND g.filename = f.filename AND g.published = 1)`;
    const params = { tenant: tenantId, domain: filter.domain ?? null, file: filter.sourceFileId ?? null, offset, end: offset + limit };
    const rows = this.db
      .prepare(
        `WITH live AS (${live}),
         placed AS (SELECT id, n, SUM(n) OVER (ORDER BY filename, version, domain, id) - n AS before, SUM(n) OVER () AS total FROM live)
         SELECT id, n, before, total FROM placed WHERE n > 0 AND before + n > @offset AND before < @end ORDER BY before`,
      )
      .all(params) as Array<{ id: string; n: number; before: number; total: number }>;
    const total = rows[0]?.total ?? (this.db.prepare(`SELECT COALESCE(SUM(n), 0) AS total FROM (${live})`).get(params) as { total: number }).total;
    const slices = rows.map((r) => ({ fileId: r.id, from: Math.max(0, offset - r.before), to: Math.min(r.n, offset + limit - r.before) }));
    return { slices, total };
  }

  /** Committed versions whose point count is not recorded (written before it was). */
  versionsWithoutPointCount(): Array<{ id: string; tenantId: string }> {
    return this.db.prepare(`SELECT id, tenant_id AS tenantId FROM source_files WHERE committed = 1 AND point_count IS NULL`).all() as Array<{
      id: string;
      tenantId: string;
    }>;
  }

  setPointCount(fileId: string, pointCount: number): void {
    this.db.prepare(`UPDATE source_files SET point_count = ? WHERE id = ?`).run(pointCount, fileId);
  }

  /** The newest committed version of a file name (0 when none): the version to publish (make live). */
  liveVersion(tenantId: string, domain: string, filename: string): number {
    const r = this.db
      .prepare(`SELECT MAX(version) AS v FROM source_files WHERE tenant_id = ? AND domain = ? AND filename = ? AND committed = 1`)
      .get(tenantId, domain, filename) as { v: number | null };
    return r.v ?? 0;
  }

  deleteSourceFile(id: string): SourceFileDeletion {
    if (this.db.prepare(`DELETE FROM source_files WHERE id = ? AND committed = 0`).run(id).changes > 0) return "deleted";
    return this.db.prepare(`SELECT 1 FROM source_files WHERE id = ?`).get(id) ? "committed" : "gone";
  }

  allObjectPaths(): string[] {
    return (this.db.prepare(`SELECT object_path FROM source_files`).all() as Array<{ object_path: string }>).map((r) => r.object_path);
  }

  countSourceFiles(tenantId?: string): number {
    const r = (
      tenantId
        ? this.db.prepare(`SELECT COUNT(*) AS n FROM source_files WHERE tenant_id = ?`).get(tenantId)
        : this.db.prepare(`SELECT COUNT(*) AS n FROM source_files`).get()
    ) as { n: number };
    return r.n;
  }

  insertJob(j: Pick<IngestionJob, "id" | "tenantId" | "domain" | "filename" | "createdAt">, owner: Owner): void {
    this.db
      .prepare(
        `INSERT INTO ingestion_jobs (id, tenant_id, domain, filename, status, created_at, owner_instance, owner_pid, owner_host)
         VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?)`,
      )
      .run(j.id, j.tenantId, j.domain, j.filename, j.createdAt, owner.instance, owner.pid, owner.host);
  }

  /** Records that a failed job's points are still in the vector store, to be removed later. */
  markPointsLeft(jobId: string): void {
    this.db.prepare(`UPDATE ingestion_jobs SET points_left = 1 WHERE id = ?`).run(jobId);
  }

  jobsWithPointsLeft(): Array<{ id: string; tenantId: string }> {
    return this.db.prepare(`SELECT id, tenant_id AS tenantId FROM ingestion_jobs WHERE points_left = 1`).all() as Array<{ id: string; tenantId: string }>;
  }

  clearPointsLeft(jobId: string): void {
    this.db.prepare(`UPDATE ingestion_jobs SET points_left = 0 WHERE id = ?`).run(jobId);
  }

  /** Records that a job's committed version could not be published, to be published later. */
  markPublishPending(jobId: string): void {
    this.db.prepare(`UPDATE ingestion_jobs SET publish_pending = 1 WHERE id = ?`).run(jobId);
  }

  jobsWithPublishPending(): Array<{ id: string; tenantId: string; domain: string; filename: string }> {
    return this.db.prepare(`SELECT id, tenant_id AS tenantId, domain, filename FROM ingestion_jobs WHERE publish_pending = 1`).all() as Array<{
      id: string;
      tenantId: string;
      domain: string;
      filename: string;
    }>;
  }

  clearPublishPending(jobId: string): void {
    this.db.prepare(`UPDATE ingestion_jobs SET publish_pending = 0 WHERE id = ?`).run(jobId);
  }

  /** Every ingestion job still running, of any process. */
  unfinishedJobs(): UnfinishedIngestion[] {
    const rows = this.db
      .prepare(
        `SELECT j.id, j.tenant_id, j.domain, j.filename, j.created_at, j.owner_pid, j.owner_host, j.owner_instance, f.id AS file_id, f.object_path, f.committed,
           f.point_count
         FROM ingestion_jobs j LEFT JOIN source_files f ON f.id = j.source_file_id WHERE j.status = 'running'`,
      )
      .all() as UnfinishedRow[];
    return rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      domain: r.domain,
      filename: r.filename,
      createdAt: r.created_at,
      owner: { pid: r.owner_pid ?? null, host: r.owner_host ?? null, instance: r.owner_instance ?? null },
      sourceFile: r.file_id ? { id: r.file_id, objectPath: r.object_path, committed: r.committed === 1, pointCount: r.point_count ?? 0 } : null,
    }));
  }

  /**
   * Marks a running job failed unless its version is committed. One statement: the commit
   * (commitSourceFile, which needs the job running) and this cannot both succeed.
   */
  failJobUnlessCommitted(id: string, failure: { errorCode: string; error: string }, at: string): boolean {
    return (
      this.db
        .prepare(
          `UPDATE ingestion_jobs SET status = 'failed', error_code = ?, error = ?, finished_at = ?
           WHERE id = ? AND status = 'running' AND NOT EXISTS (SELECT 1 FROM source_files f WHERE f.id = ingestion_jobs.source_file_id AND f.committed = 1)`,
        )
        .run(failure.errorCode, failure.error, at, id).changes > 0
    );
  }

  /** Marks a running job failed; a job already completed or failed stays as it is (terminal is final). */
  failJob(id: string, failure: { errorCode: string; error: string }, at: string): boolean {
    return (
      this.db
        .prepare(`UPDATE ingestion_jobs SET status = 'failed', error_code = ?, error = ?, finished_at = ? WHERE id = ? AND status = 'running'`)
        .run(failure.errorCode, failure.error, at, id).changes > 0
    );
  }

  job(tenantId: string, id: string): IngestionJob | null {
    const r = this.db.prepare(`SELECT * FROM ingestion_jobs WHERE tenant_id = ? AND id = ?`).get(tenantId, id) as IngestionJobRow | undefined;
    return r ? ingestionJobFromRow(r) : null;
  }

  jobs(tenantId?: string): IngestionJob[] {
    const rows = (
      tenantId
        ? this.db.prepare(`SELECT * FROM ingestion_jobs WHERE tenant_id = ? ORDER BY created_at DESC, rowid DESC`).all(tenantId)
        : this.db.prepare(`SELECT * FROM ingestion_jobs ORDER BY created_at DESC, rowid DESC`).all()
    ) as IngestionJobRow[];
    return rows.map(ingestionJobFromRow);
  }
}

interface UnfinishedRow {
  id: string;
  tenant_id: string;
  domain: string;
  filename: string;
  created_at: string;
  owner_pid: number | null;
  owner_host: string | null;
  owner_instance: string | null;
  file_id: string | null;
  object_path: string;
  committed: number;
  point_count: number | null;
}
