import type { IngestionJob, IngestionRepo, SourceFile, SourceFileDeletion, UnfinishedIngestion } from "../../domain/ports/ingestion.js";
import type { Owner } from "../owner.js";
import type { QueueClaim } from "../../domain/ports/job-queue.js";
import type { Executor } from "./executor.js";
import { ingestionJobFromRow, type IngestionJobRow } from "../rows.js";

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
  committed: boolean;
  point_count: number | null;
}

/**
 * Source files and ingestion jobs of the /v1 surface; every read is by tenant. Versions are
 * allocated under a row lock on the file name (`source_file_names`), and a job's commit and its
 * deadline both lock the job's row, so exactly one of them wins.
 */
export class PostgresIngestionRepo implements IngestionRepo {
  constructor(private readonly db: Executor) {}

  /**
   * Concurrent uploads of one name, through any replica, wait on the name's row (SELECT … FOR
   * UPDATE) and get 1, 2, 3... (never twice; the unique constraint is the backstop). A version
   * whose uncommitted file was deleted is given again, as in the SQLite store.
   */
  allocateSourceFile(f: SourceFile, jobId: string): Promise<number> {
    return this.db.atomic(async (tx) => {
      const name = [f.tenantId, f.domain, f.filename];
      await tx.query(`INSERT INTO source_file_names (tenant_id, domain, filename) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, name);
      await tx.query(`SELECT 1 FROM source_file_names WHERE tenant_id = $1 AND domain = $2 AND filename = $3 FOR UPDATE`, name);
      const { rows } = await tx.query<{ v: number }>(
        `SELECT COALESCE(MAX(version), 0) + 1 AS v FROM source_files WHERE tenant_id = $1 AND domain = $2 AND filename = $3`,
        name,
      );
      const version = rows[0]!.v;
      await tx.query(
        `INSERT INTO source_files (id, tenant_id, domain, filename, version, content_hash, object_path, created_at, committed)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, FALSE)`,
        [f.id, f.tenantId, f.domain, f.filename, version, f.contentHash, f.objectPath, f.createdAt],
      );
      await tx.query(`UPDATE ingestion_jobs SET source_file_id = $1 WHERE id = $2`, [f.id, jobId]);
      return version;
    });
  }

  commitSourceFile(fileId: string, jobId: string, pointCount: number, claim?: QueueClaim): Promise<boolean | "lost"> {
    return this.db.atomic(async (tx) => {
      // The queue job first, locked as every change of its claim locks it: a stale attempt (its
      // lease expired and another took the job) commits nothing, whatever it computed.
      if (claim) {
        const held = await tx.query(`SELECT 1 FROM jobs WHERE id = $1 AND lease_owner = $2 AND attempts = $3 AND status = 'running' FOR UPDATE`, [
          claim.jobId,
          claim.leaseOwner,
          claim.attempt,
        ]);
        if (held.rowCount === 0) return "lost";
      }
      if ((await tx.query(`SELECT 1 FROM ingestion_jobs WHERE id = $1 AND status = 'running' FOR UPDATE`, [jobId])).rowCount === 0) return false;
      await tx.query(`UPDATE source_files SET committed = TRUE, point_count = $1 WHERE id = $2`, [pointCount, fileId]);
      return true;
    });
  }

  async completeJob(id: string, outcome: { chunksIndexed: number; pointsCreated: number; pointsSoftDeleted: number }, at: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE ingestion_jobs SET status = 'completed', chunks_indexed = $1, points_created = $2, points_soft_deleted = $3, finished_at = $4
       WHERE id = $5 AND status = 'running'`,
      [outcome.chunksIndexed, outcome.pointsCreated, outcome.pointsSoftDeleted, at, id],
    );
    return rowCount > 0;
  }

  async markPublished(tenantId: string, domain: string, filename: string, version: number): Promise<void> {
    await this.db.query(`UPDATE source_files SET published = TRUE WHERE tenant_id = $1 AND domain = $2 AND filename = $3 AND version = $4`, [
      tenantId,
      domain,
      filename,
      version,
    ]);
  }

  /**
   * In file name, version and chunk order, from the versions' point counts in one query (file
   * names compared byte by byte, as SQLite does), with a second query only past the end.
   */
  async livePointPage(
    tenantId: string,
    filter: { domain?: string; sourceFileId?: string },
    offset: number,
    limit: number,
  ): Promise<{ slices: Array<{ fileId: string; from: number; to: number }>; total: number }> {
    const live = `
      SELECT f.id, f.domain, f.filename, f.version, COALESCE(f.point_count, 0)::bigint AS n FROM source_files f
      WHERE f.tenant_id = $1 AND f.published AND ($2::text IS NULL OR f.domain = $2) AND ($3::text IS NULL OR f.id = $3)
        AND f.version = (SELECT MAX(g.version) FROM source_files g
                         WHERE g.tenant_id = f.tenant_id AND g.domain = f.domain AND g.filename = f.filename AND g.published)`;
    const params = [tenantId, filter.domain ?? null, filter.sourceFileId ?? null];
    const { rows } = await this.db.query<{ id: string; n: number; before: number; total: number }>(
      `WITH live AS (${live}),
       placed AS (SELECT id, n, (SUM(n) OVER (ORDER BY filename COLLATE "C", version, domain COLLATE "C", id COLLATE "C") - n)::bigint AS before,
                         (SUM(n) OVER ())::bigint AS total FROM live)
       SELECT id, n, before, total FROM placed WHERE n > 0 AND before + n > $4 AND before < $5 ORDER BY before`,
      [...params, offset, offset + limit],
    );
    const total =
      rows[0]?.total ?? (await this.db.query<{ total: number }>(`SELECT COALESCE(SUM(n), 0)::bigint AS total FROM (${live}) AS live`, params)).rows[0]!.total;
    const slices = rows.map((r) => ({ fileId: r.id, from: Math.max(0, offset - r.before), to: Math.min(r.n, offset + limit - r.before) }));
    return { slices, total };
  }

  async versionsWithoutPointCount(): Promise<Array<{ id: string; tenantId: string }>> {
    return (
      await this.db.query<{ id: string; tenantId: string }>(`SELECT id, tenant_id AS "tenantId" FROM source_files WHERE committed AND point_count IS NULL`)
    ).rows;
  }

  async setPointCount(fileId: string, pointCount: number): Promise<void> {
    await this.db.query(`UPDATE source_files SET point_count = $1 WHERE id = $2`, [pointCount, fileId]);
  }

  async liveVersion(tenantId: string, domain: string, filename: string): Promise<number> {
    const { rows } = await this.db.query<{ v: number | null }>(
      `SELECT MAX(version) AS v FROM source_files WHERE tenant_id = $1 AND domain = $2 AND filename = $3 AND committed`,
      [tenantId, domain, filename],
    );
    return rows[0]?.v ?? 0;
  }

  async deleteSourceFile(id: string): Promise<SourceFileDeletion> {
    if ((await this.db.query(`DELETE FROM source_files WHERE id = $1 AND NOT committed`, [id])).rowCount > 0) return "deleted";
    return (await this.db.query(`SELECT 1 FROM source_files WHERE id = $1`, [id])).rowCount > 0 ? "committed" : "gone";
  }

  async allObjectPaths(): Promise<string[]> {
    return (await this.db.query<{ object_path: string }>(`SELECT object_path FROM source_files`)).rows.map((r) => r.object_path);
  }

  async countSourceFiles(tenantId?: string): Promise<number> {
    const { rows } = tenantId
      ? await this.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM source_files WHERE tenant_id = $1`, [tenantId])
      : await this.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM source_files`);
    return rows[0]!.n;
  }

  async insertJob(j: Pick<IngestionJob, "id" | "tenantId" | "domain" | "filename" | "createdAt">, owner: Owner): Promise<void> {
    await this.db.query(
      `INSERT INTO ingestion_jobs (id, tenant_id, domain, filename, status, created_at, owner_instance, owner_pid, owner_host)
       VALUES ($1, $2, $3, $4, 'running', $5, $6, $7, $8)`,
      [j.id, j.tenantId, j.domain, j.filename, j.createdAt, owner.instance, owner.pid, owner.host],
    );
  }

  async markPointsLeft(jobId: string): Promise<void> {
    await this.db.query(`UPDATE ingestion_jobs SET points_left = TRUE WHERE id = $1`, [jobId]);
  }

  async jobsWithPointsLeft(): Promise<Array<{ id: string; tenantId: string }>> {
    return (await this.db.query<{ id: string; tenantId: string }>(`SELECT id, tenant_id AS "tenantId" FROM ingestion_jobs WHERE points_left`)).rows;
  }

  async clearPointsLeft(jobId: string): Promise<void> {
    await this.db.query(`UPDATE ingestion_jobs SET points_left = FALSE WHERE id = $1`, [jobId]);
  }

  async markPublishPending(jobId: string): Promise<void> {
    await this.db.query(`UPDATE ingestion_jobs SET publish_pending = TRUE WHERE id = $1`, [jobId]);
  }

  async jobsWithPublishPending(): Promise<Array<{ id: string; tenantId: string; domain: string; filename: string }>> {
    return (
      await this.db.query<{ id: string; tenantId: string; domain: string; filename: string }>(
        `SELECT id, tenant_id AS "tenantId", domain, filename FROM ingestion_jobs WHERE publish_pending`,
      )
    ).rows;
  }

  async clearPublishPending(jobId: string): Promise<void> {
    await this.db.query(`UPDATE ingestion_jobs SET publish_pending = FALSE WHERE id = $1`, [jobId]);
  }

  async unfinishedJobs(): Promise<UnfinishedIngestion[]> {
    const { rows } = await this.db.query<UnfinishedRow>(
      `SELECT j.id, j.tenant_id, j.domain, j.filename, j.created_at, j.owner_pid, j.owner_host, j.owner_instance, f.id AS file_id, f.object_path, f.committed,
         f.point_count
       FROM ingestion_jobs j LEFT JOIN source_files f ON f.id = j.source_file_id WHERE j.status = 'running'`,
    );
    return rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      domain: r.domain,
      filename: r.filename,
      createdAt: r.created_at,
      owner: { pid: r.owner_pid ?? null, host: r.owner_host ?? null, instance: r.owner_instance ?? null },
      sourceFile: r.file_id ? { id: r.file_id, objectPath: r.object_path, committed: r.committed, pointCount: r.point_count ?? 0 } : null,
    }));
  }

  /**
   * The job's row is locked, as commitSourceFile locks it: the deadline and the commit take turns.
   * The file is read by a second statement, after the lock is held: a statement that waited for
   * the lock sees the job's new row but the joined rows of its own, older snapshot.
   */
  failJobUnlessCommitted(id: string, failure: { errorCode: string; error: string }, at: string): Promise<boolean> {
    return this.db.atomic(async (tx) => {
      const job = await tx.query<{ source_file_id: string | null }>(
        `SELECT source_file_id FROM ingestion_jobs WHERE id = $1 AND status = 'running' FOR UPDATE`,
        [id],
      );
      if (job.rows.length === 0) return false;
      const fileId = job.rows[0]!.source_file_id;
      if (fileId !== null && (await tx.query(`SELECT 1 FROM source_files WHERE id = $1 AND committed`, [fileId])).rowCount > 0) return false;
      return new PostgresIngestionRepo(tx).failJob(id, failure, at);
    });
  }

  async failJob(id: string, failure: { errorCode: string; error: string }, at: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE ingestion_jobs SET status = 'failed', error_code = $1, error = $2, finished_at = $3 WHERE id = $4 AND status = 'running'`,
      [failure.errorCode, failure.error, at, id],
    );
    return rowCount > 0;
  }

  async job(tenantId: string, id: string): Promise<IngestionJob | null> {
    const { rows } = await this.db.query<IngestionJobRow>(`SELECT * FROM ingestion_jobs WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return rows[0] ? ingestionJobFromRow(rows[0]) : null;
  }

  async jobs(tenantId?: string): Promise<IngestionJob[]> {
    const { rows } = tenantId
      ? await this.db.query<IngestionJobRow>(`SELECT * FROM ingestion_jobs WHERE tenant_id = $1 ORDER BY created_at COLLATE "C" DESC, seq DESC`, [tenantId])
      : await this.db.query<IngestionJobRow>(`SELECT * FROM ingestion_jobs ORDER BY created_at COLLATE "C" DESC, seq DESC`);
    return rows.map(ingestionJobFromRow);
  }
}
