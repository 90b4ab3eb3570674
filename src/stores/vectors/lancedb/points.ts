import type { Connection, Table } from "@lancedb/lancedb";
import { connectVectorStore } from "./connect.js";
import { TableMaintainer, VECTOR_QUERY, type IndexPlan, type TableLayout, type VectorQueryTuning } from "./maintenance.js";
import { fullTextQuery, sqlString } from "./sql.js";
import type { Point, PointFilter, PointsStore, PointsStoreOptions, PublicPoint, ScoredPoint } from "../points-store.js";

/** The name of the /v1 chunks collection (SPEC §4 rule 4), inside the /v1 namespace. */
export const CHUNKS_COLLECTION = "chunks";

function toPoint(r: Record<string, unknown>): PublicPoint {
  return {
    pointId: r.point_id as string,
    tenantId: r.tenant_id as string,
    domain: r.domain as string,
    sourceFileId: r.source_file_id as string,
    filename: r.filename as string,
    version: Number(r.version),
    chunkIndex: Number(r.chunk_index),
    text: r.text as string,
    start: Number(r.start_offset),
    end: Number(r.end_offset),
    deleted: Boolean(r.deleted),
  };
}

const COLUMNS = ["point_id", "tenant_id", "domain", "source_file_id", "filename", "version", "chunk_index", "text", "start_offset", "end_offset", "deleted"];

/**
 * Scalar indexes on every column reads and writes filter by; searches span a tenant's whole
 * collection, so past `vectorIndexMinRows` an ANN index replaces the exact scan.
 */
function pointIndexes(vectorIndexMinRows: number): IndexPlan {
  return {
    scalar: [
      { column: "tenant_id", kind: "bitmap" },
      { column: "domain", kind: "bitmap" },
      { column: "deleted", kind: "bitmap" },
      { column: "source_file_id", kind: "btree" },
      { column: "filename", kind: "btree" },
      { column: "point_id", kind: "btree" },
      { column: "ingestion_job_id", kind: "btree" },
    ],
    vectorIndexMinRows,
  };
}

/**
 * The points of the /v1 surface in one LanceDB collection, with a full-text index on `text`
 * for the sparse (BM25) side of hybrid search. Every read filters by tenant.
 */
export class LancePointsStore implements PointsStore {
  private table: Table | null = null;

  private readonly maintainer: TableMaintainer;

  constructor(
    private readonly db: Connection,
    options: PointsStoreOptions,
  ) {
    this.maintainer = new TableMaintainer(() => this.open(), pointIndexes(options.vectorIndexMinRows), options);
  }

  static async open(uri: string, options: PointsStoreOptions): Promise<LancePointsStore> {
    return new LancePointsStore(await connectVectorStore(uri), options);
  }

  /** A write: never overlaps a compaction, and schedules maintenance. */
  private async write<T>(fn: (t: Table) => Promise<T>): Promise<T> {
    const t = await this.open();
    try {
      return await this.maintainer.exclusive(() => fn(t));
    } finally {
      this.maintainer.touch();
    }
  }

  /** Runs pending maintenance now and waits for it (benchmarks, tests). */
  maintain(): Promise<void> {
    return this.maintainer.flush();
  }

  /** The collection's fragments and vector-index segments (benchmark output, tests). */
  layout(): Promise<TableLayout> {
    return this.maintainer.layout();
  }

  /** Creates the collection (and its full-text index) for vectors of `dimension` if it does not exist. */
  async ensureCollection(dimension: number): Promise<void> {
    if ((await this.db.tableNames()).includes(CHUNKS_COLLECTION)) {
      this.table ??= await this.db.openTable(CHUNKS_COLLECTION);
      return;
    }
    const lancedb = await import("@lancedb/lancedb");
    const arrow = await import("apache-arrow");
    const schema = new arrow.Schema([
      ...["point_id", "tenant_id", "domain", "source_file_id", "filename"].map((n) => new arrow.Field(n, new arrow.Utf8())),
      new arrow.Field("version", new arrow.Int32()),
      new arrow.Field("chunk_index", new arrow.Int32()),
      new arrow.Field("text", new arrow.Utf8()),
      new arrow.Field("start_offset", new arrow.Int32()),
      new arrow.Field("end_offset", new arrow.Int32()),
      new arrow.Field("deleted", new arrow.Bool()),
      new arrow.Field("ingestion_job_id", new arrow.Utf8()),
      new arrow.Field("vector", new arrow.FixedSizeList(dimension, new arrow.Field("item", new arrow.Float32(), true))),
    ]);
    this.table = await this.db.createEmptyTable(CHUNKS_COLLECTION, schema, { existOk: true });
    await this.table.createIndex("text", { config: lancedb.Index.fts(), replace: true });
  }

  /** Ready when the store answers and the chunks collection exists (SPEC §4 rule 4). */
  async readiness(): Promise<{ ready: boolean; reason?: string; unreachable?: boolean }> {
    try {
      const names = await this.db.tableNames();
      return names.includes(CHUNKS_COLLECTION) ? { ready: true } : { ready: false, reason: "the chunks collection does not exist" };
    } catch (error) {
      return { ready: false, reason: `vector store unreachable: ${error instanceof Error ? error.message : String(error)}`, unreachable: true };
    }
  }

  private async open(): Promise<Table> {
    this.table ??= await this.db.openTable(CHUNKS_COLLECTION);
    return this.table;
  }

  async add(points: Point[]): Promise<void> {
    if (points.length === 0) return;
    const t = await this.open();
    // LanceDB pads or truncates mismatched vectors silently; a wrong size must fail the write.
    const field = (await t.schema()).fields.find((f) => f.name === "vector");
    const dimension = (field?.type as { listSize?: number } | undefined)?.listSize;
    const given = points[0]!.vector.length;
    if (dimension !== undefined && given !== dimension) {
      throw new Error(`vectors have ${given} dimensions but the chunks collection holds ${dimension} (was the embedder changed?)`);
    }
    const rows = points.map((p) => ({
      point_id: p.pointId,
      tenant_id: p.tenantId,
      domain: p.domain,
      source_file_id: p.sourceFileId,
      filename: p.filename,
      version: p.version,
      chunk_index: p.chunkIndex,
      text: p.text,
      start_offset: p.start,
      end_offset: p.end,
      deleted: p.deleted,
      ingestion_job_id: p.ingestionJobId,
      vector: Array.from(p.vector),
    }));
    await this.write((table) => table.add(rows));
  }

  /**
   * Makes `version` the one live version of a file name: its points visible, every other
   * version's points soft-deleted. Returns how many points it hid. Idempotent, so writers that
   * race can each apply the newest committed version and re-check (IngestionService.publish).
   */
  async setLiveVersion(tenantId: string, domain: string, filename: string, version: number): Promise<number> {
    const t = await this.open();
    const file = `tenant_id = ${sqlString(tenantId)} AND domain = ${sqlString(domain)} AND filename = ${sqlString(filename)}`;
    // Show the new version before hiding the old, so a search never finds the file missing.
    await this.write((table) => table.update({ where: `${file} AND version = ${version} AND deleted = true`, values: { deleted: false } }));
    const hide = `${file} AND version <> ${version} AND deleted = false`;
    const n = await t.countRows(hide);
    if (n > 0) await this.write((table) => table.update({ where: hide, values: { deleted: true } }));
    return n;
  }

  /** Removes every point an ingestion job wrote (a failed ingestion leaves nothing searchable). */
  async deleteByJob(jobId: string): Promise<void> {
    await this.write((t) => t.delete(`ingestion_job_id = ${sqlString(jobId)}`));
  }

  async countOfVersion(tenantId: string, sourceFileId: string): Promise<number> {
    const t = await this.open();
    return t.countRows(`tenant_id = ${sqlString(tenantId)} AND source_file_id = ${sqlString(sourceFileId)}`);
  }

  private filter(tenantId: string, f: PointFilter): string {
    return [
      `tenant_id = ${sqlString(tenantId)}`,
      "deleted = false",
      ...(f.domain ? [`domain = ${sqlString(f.domain)}`] : []),
      ...(f.sourceFileId ? [`source_file_id = ${sqlString(f.sourceFileId)}`] : []),
    ].join(" AND ");
  }

  async getMany(tenantId: string, pointIds: string[]): Promise<PublicPoint[]> {
    if (pointIds.length === 0) return [];
    const t = await this.open();
    // point_id has a btree index: a page's ids are looked up, not scanned for.
    const where = `tenant_id = ${sqlString(tenantId)} AND point_id IN (${pointIds.map(sqlString).join(", ")})`;
    return (await t.query().where(where).select(COLUMNS).limit(pointIds.length).toArray()).map(toPoint);
  }

  async get(tenantId: string, pointId: string): Promise<PublicPoint | null> {
    const t = await this.open();
    const rows = await t
      .query()
      .where(`tenant_id = ${sqlString(tenantId)} AND point_id = ${sqlString(pointId)}`)
      .select(COLUMNS)
      .limit(1)
      .toArray();
    return rows[0] ? toPoint(rows[0]) : null;
  }

  /**
   * The nearest live points of a tenant by cosine distance: through the ANN index once it
   * exists, or by exact scan (`exact`, which the benchmark compares the index against, as it
   * does other `tuning` of the index's query parameters).
   */
  async nearest(
    tenantId: string,
    vector: Float32Array,
    domain: string | undefined,
    limit: number,
    options: { exact?: boolean; tuning?: Partial<VectorQueryTuning> } = {},
  ): Promise<Array<Record<string, unknown>>> {
    const t = await this.open();
    const query = t
      .vectorSearch(Array.from(vector))
      .distanceType("cosine")
      .where(this.filter(tenantId, { domain }))
      .select([...COLUMNS, "_distance"])
      .limit(limit);
    const tuning = { ...VECTOR_QUERY, ...options.tuning };
    if (options.exact) query.bypassVectorIndex();
    // HNSW refuses a search breadth below the candidates it must return (limit x refine factor).
    else
      query
        .nprobes(tuning.nprobes)
        .refineFactor(tuning.refineFactor)
        .ef(Math.max(tuning.ef, limit * tuning.refineFactor));
    return query.toArray();
  }

  /** Dense candidates among a tenant's live points, best first, with cosine similarity as score. */
  async denseSearch(tenantId: string, vector: Float32Array, domain: string | undefined, limit: number): Promise<ScoredPoint[]> {
    const rows = await this.nearest(tenantId, vector, domain, limit);
    return rows.map((r) => ({ ...toPoint(r), score: 1 - (r._distance as number) }));
  }

  /** BM25 candidates among a tenant's live points for a question as the user wrote it. */
  async keywordSearch(tenantId: string, text: string, domain: string | undefined, limit: number): Promise<ScoredPoint[]> {
    const query = fullTextQuery(text);
    if (!query) return [];
    const t = await this.open();
    const rows = await t
      .query()
      .fullTextSearch(query)
      .where(this.filter(tenantId, { domain }))
      .select([...COLUMNS, "_score"])
      .limit(limit)
      .toArray();
    return rows.map((r: Record<string, unknown>) => ({ ...toPoint(r), score: r._score as number }));
  }

  async close(): Promise<void> {
    await this.maintainer.close().catch(() => undefined);
    this.table?.close();
    this.db.close();
  }
}
