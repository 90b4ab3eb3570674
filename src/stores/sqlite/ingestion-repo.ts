import type { Db } from "./database.js";

export interface SourceFile {
  id: string;
  tenantId: string;
  domain: string;
  filename: string;
  version: number;
  contentHash: string;
  objectPath: string;
  createdAt: string;
}

export interface IngestionJob {
  id: string;
  tenantId: string;
  domain: string;
  filename: string;
  sourceFileId: string | null;
  status: "running" | "completed" | "failed";
  errorCode: string | null;
  error: string | null;
  chunksIndexed: number;
  pointsCreated: number;
  pointsSoftDeleted: number;
  createdAt: string;
  finishedAt: string | null;
}

/** Source files and ingestion jobs of the /v1 surface; every read is by tenant. */
export class IngestionRepo {
  constructor(private readonly db: Db) {}

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  latestVersion(tenantId: string, domain: string, filename: string): number {
    const r = this.db.prepare(`SELECT MAX(version) AS v FROM source_files WHERE tenant_id = ? AND domain = ? AND filename = ?`).get(tenantId, domain, filename) as { v: number | null };
    return r.v ?? 0;
  }

  insertSourceFile(f: SourceFile): void {
    this.db
      .prepare(`INSERT INTO source_files (id, tenant_id, domain, filename, version, content_hash, object_path, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(f.id, f.tenantId, f.domain, f.filename, f.version, f.contentHash, f.objectPath, f.createdAt);
  }

  deleteSourceFile(id: string): void {
    this.db.prepare(`DELETE FROM source_files WHERE id = ?`).run(id);
  }

  countSourceFiles(tenantId?: string): number {
    const r = (tenantId ? this.db.prepare(`SELECT COUNT(*) AS n FROM source_files WHERE tenant_id = ?`).get(tenantId) : this.db.prepare(`SELECT COUNT(*) AS n FROM source_files`).get()) as { n: number };
    return r.n;
  }

  insertJob(j: Pick<IngestionJob, "id" | "tenantId" | "domain" | "filename" | "createdAt">): void {
    this.db.prepare(`INSERT INTO ingestion_jobs (id, tenant_id, domain, filename, status, created_at) VALUES (?, ?, ?, ?, 'running', ?)`).run(j.id, j.tenantId, j.domain, j.filename, j.createdAt);
  }

  finishJob(id: string, outcome: Partial<Pick<IngestionJob, "sourceFileId" | "errorCode" | "error" | "chunksIndexed" | "pointsCreated" | "pointsSoftDeleted">> & { status: "completed" | "failed" }, at: string): void {
    this.db
      .prepare(
        `UPDATE ingestion_jobs SET status = ?, source_file_id = COALESCE(?, source_file_id), error_code = ?, error = ?, chunks_indexed = ?, points_created = ?, points_soft_deleted = ?, finished_at = ? WHERE id = ?`,
      )
      .run(outcome.status, outcome.sourceFileId ?? null, outcome.errorCode ?? null, outcome.error ?? null, outcome.chunksIndexed ?? 0, outcome.pointsCreated ?? 0, outcome.pointsSoftDeleted ?? 0, at, id);
  }

  job(tenantId: string, id: string): IngestionJob | null {
    const r = this.db.prepare(`SELECT * FROM ingestion_jobs WHERE tenant_id = ? AND id = ?`).get(tenantId, id) as Record<string, string & number> | undefined;
    return r ? toJob(r) : null;
  }

  jobs(tenantId?: string): IngestionJob[] {
    const rows = (tenantId ? this.db.prepare(`SELECT * FROM ingestion_jobs WHERE tenant_id = ? ORDER BY created_at DESC, rowid DESC`).all(tenantId) : this.db.prepare(`SELECT * FROM ingestion_jobs ORDER BY created_at DESC, rowid DESC`).all()) as Array<Record<string, string & number>>;
    return rows.map(toJob);
  }
}

function toJob(r: Record<string, string & number>): IngestionJob {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    domain: r.domain,
    filename: r.filename,
    sourceFileId: r.source_file_id ?? null,
    status: r.status as IngestionJob["status"],
    errorCode: r.error_code ?? null,
    error: r.error ?? null,
    chunksIndexed: r.chunks_indexed,
    pointsCreated: r.points_created,
    pointsSoftDeleted: r.points_soft_deleted,
    createdAt: r.created_at,
    finishedAt: r.finished_at ?? null,
  };
}
