import type { Connection, Table } from "@lancedb/lancedb";
import { connectVectorStore, loadLanceDb } from "./connect.js";
import { TableMaintainer, VECTOR_QUERY, type IndexPlan, type TableLayout, type VectorQueryTuning } from "./maintenance.js";
import { createOrOpenTable, openCommittedTable } from "./create-table.js";
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

/** The columns of the collection and of every tenant table. */
async function pointSchema(dimension: number) {
  const arrow = await import("apache-arrow");
  return new arrow.Schema([
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
}

const COLUMNS = ["point_id", "tenant_id", "domain", "source_file_id", "filename", "version", "chunk_index", "text", "start_offset", "end_offset", "deleted"];

/**
 * Scalar indexes on every column reads and writes filter by, and the full-text index that the
 * sparse side of hybrid search needs; past `vectorIndexMinRows` an ANN index replaces the exact scan.
 */
function pointIndexes(vectorIndexMinRows: number): IndexPlan {
  return {
    scalar: [
      { column: "text", kind: "fts" },
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

/** One tenant's points table, and the upkeep that keeps its indexes and fragments in shape. */
interface TenantTable {
  table: Table;
  maintainer: TableMaintainer;
}

/**
 * The table of a tenant's points. Tenant ids are generated (`ten_` and hex), so the name is
 * always a valid table name; anything else is refused rather than mapped onto another tenant's.
 */
function tenantTableName(tenantId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(tenantId)) throw new Error(`not a tenant id: ${JSON.stringify(tenantId)}`);
  return `points_${tenantId}`;
}

/** Whether the table has its full-text index, without which keyword search cannot run. */
async function hasTextIndex(table: Table): Promise<boolean> {
  return (await table.listIndices()).some((i) => i.columns.includes("text"));
}

/**
 * Builds a tenant table's full-text index if it lacks one, so new points are searchable by
 * words before upkeep runs. If another process built it meanwhile, ours fails and is not needed;
 * any other failure fails the caller, and upkeep builds the index later.
 */
async function ensureTextIndex(table: Table): Promise<void> {
  if (await hasTextIndex(table)) return;
  const lancedb = await loadLanceDb();
  await table.createIndex("text", { config: lancedb.Index.fts(), replace: false }).catch(async (error: unknown) => {
    if (!(await hasTextIndex(table))) throw error;
  });
}

/**
 * The points of the /v1 surface. The `chunks` table is the collection (SPEC §4 rule 4): it fixes
 * the vector dimension and holds no points. Each tenant's points live in a table of their own,
 * with a full-text index on `text` for the sparse (BM25) side of hybrid search.
 *
 * Why a table per tenant: every read is one tenant's. In one shared table the ANN index searched
 * all tenants' rows with a tenant pre-filter; at 100k points in 3 tenants that took 18.6 ms
 * (dense top 40 and BM25 in parallel, recall@10 0.960), against 8.1 ms (recall@10 0.992) for the
 * same tenant's rows in their own table (`npm run bench:scale` measures it end to end).
 */
export class LancePointsStore implements PointsStore {
  /** Tenant tables opened by this process, by tenant id; an entry is in flight while its table opens. */
  private readonly tenants = new Map<string, Promise<TenantTable | null>>();

  /** Points written before tenants had tables of their own, moved once per process (see `moveSharedPoints`). */
  private readonly sharedPointsMoved: () => Promise<void>;

  constructor(
    private readonly db: Connection,
    private readonly options: PointsStoreOptions,
  ) {
    let moving: Promise<void> | null = null;
    // A failed move is tried again by the next use rather than failing every later one.
    this.sharedPointsMoved = () =>
      (moving ??= this.moveSharedPoints().catch((error: unknown) => {
        moving = null;
        throw error;
      }));
  }

  static async open(uri: string, options: PointsStoreOptions): Promise<LancePointsStore> {
    return new LancePointsStore(await connectVectorStore(uri), options);
  }

  /** A write to a tenant's table: never overlaps its compaction, and schedules its upkeep. */
  private async write<T>(tenant: TenantTable, fn: (t: Table) => Promise<T>): Promise<T> {
    try {
      return await tenant.maintainer.exclusive(() => fn(tenant.table));
    } finally {
      tenant.maintainer.touch();
    }
  }

  /** Runs pending upkeep of every tenant table this process wrote to, and waits for it (benchmarks, tests). */
  async maintain(): Promise<void> {
    for (const opening of this.tenants.values()) await (await opening)?.maintainer.flush();
  }

  /** A tenant's table: its fragments and vector-index segments (benchmark output, tests). */
  async layout(tenantId: string): Promise<TableLayout> {
    const tenant = await this.tenantTable(tenantId, { create: false });
    return tenant ? tenant.maintainer.layout() : { fragments: 0, vectorIndexSegments: 0 };
  }

  /**
   * Creates the collection (the `chunks` table) for vectors of `dimension` if it does not exist,
   * and moves points from before tenant tables, once, when the /v1 surface first opens.
   */
  async ensureCollection(dimension: number): Promise<void> {
    if (!(await this.db.tableNames()).includes(CHUNKS_COLLECTION)) {
      await this.db.createEmptyTable(CHUNKS_COLLECTION, await pointSchema(dimension), { existOk: true });
    }
    await this.sharedPointsMoved();
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

  /**
   * A table if it is listed and committed, null if not. Existence is read from the listing, not
   * guessed from any error: a listed table fails the caller when it cannot be opened, except when
   * it has no first commit yet (another replica creating it: seen as two replicas' first uploads
   * of a tenant failing one of them), which holds no point to hide or delete (openCommittedTable).
   */
  private async openTable(name: string): Promise<Table | null> {
    return (await this.db.tableNames()).includes(name) ? openCommittedTable(this.db, name) : null;
  }

  /**
   * A tenant's table, opened once per process (callers at the same moment share the opening).
   * Reads of a tenant that never had a point find none (`create: false`); its first write
   * creates the table with the collection's schema.
   */
  private async tenantTable(tenantId: string, { create }: { create: boolean }): Promise<TenantTable | null> {
    await this.sharedPointsMoved();
    for (;;) {
      let opening = this.tenants.get(tenantId);
      if (!opening) {
        opening = this.openTenantTable(tenantId, create);
        this.tenants.set(tenantId, opening);
        // Registered before any caller awaits it, so a "no table" result is forgotten before a writer loops.
        void opening.then(
          (found) => found ?? this.tenants.delete(tenantId),
          () => this.tenants.delete(tenantId),
        );
      }
      const tenant = await opening;
      if (tenant || !create) return tenant;
    }
  }

  /**
   * Opens (or, for a write, creates) a tenant's table. A table without its full-text index (new,
   * moved, or left by a process killed after creating it) gets it now, since keyword search cannot
   * run without it; any other index it lacks is scheduled for upkeep, which otherwise runs only after writes.
   */
  private async openTenantTable(tenantId: string, create: boolean): Promise<TenantTable | null> {
    const name = tenantTableName(tenantId);
    const table = (await this.openTable(name)) ?? (create ? await this.createTenantTable(name) : null);
    if (!table) return null;
    await ensureTextIndex(table);
    const maintainer = new TableMaintainer(async () => table, pointIndexes(this.options.vectorIndexMinRows), this.options);
    if (await maintainer.needsUpkeep()) maintainer.touch();
    return { table, maintainer };
  }

  /** A new tenant table with the collection's schema; another process creating it at the same moment wins, and its table is opened once committed. */
  private async createTenantTable(name: string): Promise<Table> {
    const collection = await this.openTable(CHUNKS_COLLECTION);
    if (!collection) throw new Error("the chunks collection does not exist");
    const schema = await collection.schema();
    collection.close();
    return (await createOrOpenTable(this.db, name, () => this.db.createEmptyTable(name, schema, { mode: "create" }))).table;
  }

  /**
   * Data directories from before tenant tables kept every point in the `chunks` table. Its
   * points move to their tenants' tables at the first use of the store: per tenant, one table
   * creation with all its rows, then one delete from `chunks`. A process killed between the two
   * finds the tenant's table at its next start and only repeats the delete; another process
   * moving the same tenant at once loses the creation race and does the same.
   */
  private async moveSharedPoints(): Promise<void> {
    const shared = await this.openTable(CHUNKS_COLLECTION);
    if (!shared) return;
    try {
      if ((await shared.countRows()) === 0) return;
      const rows = await shared.query().select(["tenant_id"]).toArray();
      for (const tenantId of new Set(rows.map((r: Record<string, unknown>) => r.tenant_id as string))) {
        const name = tenantTableName(tenantId);
        const where = `tenant_id = ${sqlString(tenantId)}`;
        const moved = await this.openTable(name);
        if (moved) moved.close();
        else {
          // Its indexes are built when the table is first opened (`openTenantTable`).
          const rows = await shared.query().where(where).toArrow();
          (await createOrOpenTable(this.db, name, () => this.db.createTable(name, rows, { mode: "create" }))).table.close();
        }
        await shared.delete(where);
      }
      // The moved rows' files go once the retention has passed (a later start cleans up the rest).
      await shared.optimize({ cleanupOlderThan: new Date(Date.now() - this.options.versionRetentionMs) });
    } finally {
      shared.close();
    }
  }

  async add(points: Point[]): Promise<void> {
    if (points.length === 0) return;
    const tenantIds = new Set(points.map((p) => p.tenantId));
    if (tenantIds.size > 1) throw new Error("a write of points is one tenant's");
    const tenant = (await this.tenantTable(points[0]!.tenantId, { create: true }))!;
    // LanceDB pads or truncates mismatched vectors silently; a wrong size must fail the write.
    const field = (await tenant.table.schema()).fields.find((f) => f.name === "vector");
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
    await this.write(tenant, (table) => table.add(rows));
  }

  /**
   * Makes `version` the one live version of a file name: its points visible, every other
   * version's points soft-deleted. Returns how many points it hid. Idempotent, so writers that
   * race can each apply the newest committed version and re-check (IngestionService.publish).
   */
  async setLiveVersion(tenantId: string, domain: string, filename: string, version: number): Promise<number> {
    const tenant = await this.tenantTable(tenantId, { create: false });
    if (!tenant) return 0;
    const file = `domain = ${sqlString(domain)} AND filename = ${sqlString(filename)}`;
    // Show the new version before hiding the old, so a search never finds the file missing.
    await this.write(tenant, (table) => table.update({ where: `${file} AND version = ${version} AND deleted = true`, values: { deleted: false } }));
    const hide = `${file} AND version <> ${version} AND deleted = false`;
    const n = await tenant.table.countRows(hide);
    if (n > 0) await this.write(tenant, (table) => table.update({ where: hide, values: { deleted: true } }));
    return n;
  }

  /** Removes every point an ingestion job of the tenant wrote (a failed ingestion leaves nothing searchable). */
  async deleteByJob(tenantId: string, jobId: string): Promise<void> {
    const tenant = await this.tenantTable(tenantId, { create: false });
    if (tenant) await this.write(tenant, (t) => t.delete(`ingestion_job_id = ${sqlString(jobId)}`));
  }

  async countOfVersion(tenantId: string, sourceFileId: string): Promise<number> {
    const tenant = await this.tenantTable(tenantId, { create: false });
    return tenant ? tenant.table.countRows(`source_file_id = ${sqlString(sourceFileId)}`) : 0;
  }

  private filter(f: PointFilter): string {
    return [
      "deleted = false",
      ...(f.domain ? [`domain = ${sqlString(f.domain)}`] : []),
      ...(f.sourceFileId ? [`source_file_id = ${sqlString(f.sourceFileId)}`] : []),
    ].join(" AND ");
  }

  async getMany(tenantId: string, pointIds: string[]): Promise<PublicPoint[]> {
    if (pointIds.length === 0) return [];
    const tenant = await this.tenantTable(tenantId, { create: false });
    if (!tenant) return [];
    // point_id has a btree index: a page's ids are looked up, not scanned for.
    const where = `point_id IN (${pointIds.map(sqlString).join(", ")})`;
    return (await tenant.table.query().where(where).select(COLUMNS).limit(pointIds.length).toArray()).map(toPoint);
  }

  async get(tenantId: string, pointId: string): Promise<PublicPoint | null> {
    const tenant = await this.tenantTable(tenantId, { create: false });
    if (!tenant) return null;
    const rows = await tenant.table
      .query()
      .where(`point_id = ${sqlString(pointId)}`)
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
    const tenant = await this.tenantTable(tenantId, { create: false });
    if (!tenant) return [];
    const query = tenant.table
      .vectorSearch(Array.from(vector))
      .distanceType("cosine")
      .where(this.filter({ domain }))
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
    const tenant = await this.tenantTable(tenantId, { create: false });
    if (!tenant) return [];
    const rows = await tenant.table
      .query()
      .fullTextSearch(query)
      .where(this.filter({ domain }))
      .select([...COLUMNS, "_score"])
      .limit(limit)
      .toArray();
    return rows.map((r: Record<string, unknown>) => ({ ...toPoint(r), score: r._score as number }));
  }

  async close(): Promise<void> {
    for (const opening of this.tenants.values()) {
      const tenant = await opening.catch(() => null);
      if (!tenant) continue;
      await tenant.maintainer.close().catch(() => undefined);
      tenant.table.close();
    }
    this.db.close();
  }
}
