import type { Table } from "@lancedb/lancedb";
import type { StoreUpkeep } from "../vector-store.js";
import { loadLanceDb } from "./connect.js";

/** The indexes a table should carry: scalar indexes on its filter columns, and a vector index once it is large. */
export interface IndexPlan {
  /** btree for high-cardinality columns (ids), bitmap for few distinct values (strategy, domain, flags), fts for text searched by words. */
  scalar: Array<{ column: string; kind: "btree" | "bitmap" | "fts" }>;
  /** Build an ANN index on `vector` once the table holds this many rows; absent: never. */
  vectorIndexMinRows?: number;
}

/**
 * The ANN index is one IVF partition: one HNSW graph per index segment. Rebuilt with more
 * partitions (k-means over the table), LanceDB 0.37's upkeep rewrote the whole index at every
 * later `optimize`, added rows or not (measured: 6 partitions over 101k rows, 12-30 s per upkeep;
 * 8 over 33.6k, 4-10 s); with one partition an upkeep that adds rows stays a new segment of
 * them (0.2 s). Whether LanceDB later splits the partition of a tenant grown far past its
 * size at the rebuild has not been measured.
 */
const VECTOR_INDEX_PARTITIONS = 1;

/**
 * Each upkeep that finds new rows folds them into a segment of their own, and a search walks
 * every segment's graph. Past this many segments upkeep rebuilds the index as one (at 33.6k rows
 * about 6 s, plus about 12 s for the compaction that one segment allows), so a tenant's table
 * pays a rebuild once per this many upkeeps with new rows. Measured on `bench:scale`'s searched
 * tenant (33.6k rows), `/v1/search` p50 against the same query at 272 rows, alternating servers:
 * 1.46-1.77x with one segment, 1.62-1.89x with 3, 2.00x with 4.
 */
export const MAX_VECTOR_INDEX_SEGMENTS = 3;

/**
 * Query-time parameters of the ANN index, measured by `npm run bench:scale` (recall@10 against
 * exact search on the same queries): re-ranking by exact distance, and `ef`, the breadth of
 * each graph's search. One large graph (a rebuilt index of 33.6k hash vectors) gave 0.954 at
 * ef 200, 0.984 at 300 and 0.998 at 500 (refine factor 4), in 5.2 ms or less; small segments
 * cost little more with it. `nprobes` only matters for an index of several partitions, as
 * tables indexed before `VECTOR_INDEX_PARTITIONS` became 1 still have until their rebuild.
 */
export const VECTOR_QUERY: Readonly<VectorQueryTuning> = { nprobes: 24, refineFactor: 4, ef: 500 };

export interface TableLayout {
  fragments: number;
  vectorIndexSegments: number;
}

/** How widely an ANN search looks: IVF partitions probed, candidates re-ranked per result, HNSW breadth. */
export interface VectorQueryTuning {
  nprobes: number;
  refineFactor: number;
  ef: number;
}

/**
 * Keeps one LanceDB table healthy without blocking searches: after writes it builds missing
 * scalar indexes, the vector index once the table is large enough, then compacts fragments,
 * folds new rows into the indexes and deletes versions older than the retention (LanceDB's
 * `optimize`). Runs are scheduled on an unreferenced timer, one at a time. Writes and the
 * compaction step take the same in-process lock, because a delete that races a compaction of
 * its fragments fails with a commit conflict; searches never wait for it.
 */
export class TableMaintainer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private dirty = false;
  private closed = false;
  private lock: Promise<unknown> = Promise.resolve();
  /** Failed runs in a row (0 after a success): a failed run is retried later, each retry waiting twice as long. */
  private failures = 0;
  private lastFailure: Error | null = null;

  constructor(
    private readonly table: () => Promise<Table>,
    private readonly plan: IndexPlan,
    private readonly options: StoreUpkeep,
  ) {}

  /** Runs `fn` (a write) so that it never overlaps a compaction of the same table. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.lock.then(fn, fn);
    this.lock = result.catch(() => undefined);
    return result;
  }

  /** Records a write and schedules a maintenance run. */
  touch(): void {
    this.dirty = true;
    if (this.closed || this.timer || this.running) return;
    // After failures, back off (up to 10 minutes) so that a table upkeep cannot fix is not retried in a tight loop.
    const delayMs = Math.min(this.options.delayMs * 2 ** this.failures, 600_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delayMs);
    this.timer.unref();
  }

  /** Runs maintenance now if anything was written since the last run, and waits for it; rejects if that run failed. */
  async flush(): Promise<void> {
    if (this.timer) (clearTimeout(this.timer), (this.timer = null));
    while (this.running) await this.running;
    if (!this.dirty) return;
    await this.run();
    if (this.failures > 0) throw this.lastFailure!;
  }

  /**
   * Finishes pending maintenance (a CLI command's writes get their upkeep before it exits), then
   * stops. A failure was already reported as a warning, and the committed data does not depend on
   * upkeep, so it does not fail the command; the next process that writes or opens the table retries.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush().catch(() => undefined);
  }

  private run(): Promise<void> {
    if (this.running) return this.running;
    this.dirty = false;
    this.running = this.maintain()
      .then(() => void (this.failures = 0))
      .catch((error: unknown) => {
        this.failures++;
        this.lastFailure = error instanceof Error ? error : new Error(String(error));
        this.dirty = true;
        // Searches and writes still work without upkeep (unindexed rows are scanned), so this is a warning, not an error.
        process.emitWarning(`vector store upkeep failed (attempt ${this.failures}, retried later): ${this.lastFailure.message}`, "ChunkevalUpkeepWarning");
      })
      .finally(() => {
        this.running = null;
        if (this.dirty && !this.closed) this.touch();
      });
    return this.running;
  }

  private async maintain(): Promise<void> {
    const lancedb = await loadLanceDb();
    const t = await this.table();
    const rows = await t.countRows();
    const indexed = indexedColumns(await t.listIndices());
    // Indexes need rows to train on; an emptied table still gets its compaction and old versions' cleanup.
    for (const { column, kind } of rows === 0 ? [] : this.plan.scalar) {
      if (indexed.has(column)) continue;
      await t.createIndex(column, { config: kind === "btree" ? lancedb.Index.btree() : kind === "bitmap" ? lancedb.Index.bitmap() : lancedb.Index.fts() });
    }
    const minRows = this.plan.vectorIndexMinRows;
    const vectorIndex = () => lancedb.Index.hnswSq({ distanceType: "cosine", numPartitions: VECTOR_INDEX_PARTITIONS });
    if (minRows !== undefined && rows >= minRows && !indexed.has("vector")) await t.createIndex("vector", { config: vectorIndex() });
    const cleanupOlderThan = new Date(Date.now() - this.options.versionRetentionMs);
    await this.exclusive(() => t.optimize({ cleanupOlderThan }));
    // Listed again: this run may just have built the index.
    if (minRows !== undefined && rows > 0 && (await vectorIndexSegments(t, await t.listIndices())) > MAX_VECTOR_INDEX_SEGMENTS) {
      // Searches keep using the old index until the new one commits. LanceDB does not compact
      // fragments that different segments cover; under one segment they can be, hence the second pass.
      await t.createIndex("vector", { config: vectorIndex(), replace: true });
      await this.exclusive(() => t.optimize({ cleanupOlderThan }));
    }
  }

  /**
   * Whether a table just opened needs upkeep that no write of this process will schedule: an index
   * of the plan is missing (a table created or moved without its writes' upkeep), or the vector
   * index has more segments than upkeep leaves (a process stopped, or its upkeep failed, before the rebuild).
   */
  async needsUpkeep(): Promise<boolean> {
    const t = await this.table();
    const indices = await t.listIndices();
    const indexed = indexedColumns(indices);
    if (this.plan.scalar.some(({ column }) => !indexed.has(column))) return true;
    const minRows = this.plan.vectorIndexMinRows;
    if (minRows === undefined) return false;
    if (!indexed.has("vector")) return (await t.countRows()) >= minRows;
    return (await vectorIndexSegments(t, indices)) > MAX_VECTOR_INDEX_SEGMENTS;
  }

  /** The table's data fragments and vector-index segments (0: no index yet), for the benchmark and tests. */
  async layout(): Promise<TableLayout> {
    const t = await this.table();
    return { fragments: (await t.stats()).fragmentStats.numFragments, vectorIndexSegments: await vectorIndexSegments(t, await t.listIndices()) };
  }
}

type IndexList = Awaited<ReturnType<Table["listIndices"]>>;

function indexedColumns(indices: IndexList): Set<string> {
  return new Set(indices.flatMap((i) => i.columns));
}

/** Segments of the table's vector index (0: no index yet), from an index list the caller already has. */
async function vectorIndexSegments(t: Table, indices: IndexList): Promise<number> {
  const vectorIndex = indices.find((i) => i.columns.includes("vector"));
  return vectorIndex ? ((await t.indexStats(vectorIndex.name))?.numIndices ?? 0) : 0;
}
