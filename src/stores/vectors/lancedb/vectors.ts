import type { Connection, Table } from "@lancedb/lancedb";
import { connectVectorStore } from "./connect.js";
import { createOrOpenTable, openCommittedTable } from "./create-table.js";
import { TableMaintainer, VECTOR_QUERY, type IndexPlan } from "./maintenance.js";
import { sqlString } from "./sql.js";
import {
  missingVectorsError,
  type VectorEntry,
  type VectorHit,
  type VectorRow,
  type VectorScope,
  type VectorStore,
  type VectorStoreOptions,
} from "../vector-store.js";

function scopeFilter(scope: VectorScope): string {
  return `document_id = ${sqlString(scope.documentId)} AND strategy = ${sqlString(scope.strategy)} AND generation = ${sqlString(scope.generation)}`;
}

/** The least share of a table's rows a search must keep for its ANN index to serve it (see `approximate`). */
const ANN_MIN_SHARE = 0.5;
const ROW_COUNT_TTL_MS = 10_000;

/**
 * Several scopes (a collection's documents) as one filter: generation ids are unique, so one IN
 * list on the indexed generation column selects them all, however many documents there are.
 */
function scopesFilter(scopes: VectorScope[]): string {
  if (scopes.length === 1) return scopeFilter(scopes[0]!);
  const strategies = [...new Set(scopes.map((s) => s.strategy))];
  return `strategy IN (${strategies.map(sqlString).join(", ")}) AND generation IN (${scopes.map((s) => sqlString(s.generation)).join(", ")})`;
}

/**
 * A search scoped to one document's strategy (tens to hundreds of rows) is exact: scalar
 * indexes on the scope columns do the narrowing. An ANN index would not serve it: with a filter
 * that selective, LanceDB's prefiltered IVF-PQ search found 0.29 of the exact top 10 and
 * HNSW-SQ was slower than the exact scan of the scope (100k rows, 512 dimensions;
 * docs/deployment.md, "Scale"). A collection's search spans every document's rows, and the exact scan of 110k rows
 * took 60-90 ms; so a table this large also gets an ANN index, and searches whose scopes hold at
 * least `vectorIndexMinRows` use it (5.6 ms on the same rows, recall measured by `bench:scale -- --collection`).
 */
function evaluationIndexes(vectorIndexMinRows: number): IndexPlan {
  return {
    scalar: [
      { column: "document_id", kind: "btree" },
      { column: "strategy", kind: "bitmap" },
      { column: "generation", kind: "btree" },
    ],
    vectorIndexMinRows,
  };
}

/**
 * LanceDB at a local path or an object-store URI (the evaluation namespace: every table there
 * is this store's). Each table is one vector space, one embedder's vectors, with
 * scalar indexes on the scope columns; rows that arrived after an index was built are still
 * searched (LanceDB scans unindexed fragments) until the table's maintainer folds them in.
 * Keyword search is not asked of it: BM25 runs in retrieval/bm25.ts over one strategy's chunks.
 */
export class LanceVectorStore implements VectorStore {
  /** Tables being opened or created; an opening that found no committed table is forgotten. */
  private readonly tables = new Map<string, Promise<Table | null>>();
  /** Rows per table, for choosing exact or approximate search; forgotten at every write and after a while (other processes write too). */
  private readonly rowCounts = new Map<string, { rows: number; at: number }>();
  private readonly maintainers = new Map<string, TableMaintainer>();

  private constructor(
    private readonly db: Connection,
    private readonly options: VectorStoreOptions,
  ) {}

  static async open(uri: string, options: VectorStoreOptions): Promise<LanceVectorStore> {
    return new LanceVectorStore(await connectVectorStore(uri), options);
  }

  /** A table per embedder and dimension; the name is kept stable because SQLite records it. */
  spaceFor(embedder: string, dimension: number): string {
    return `chunks_${embedder.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_${dimension}`;
  }

  private maintainer(name: string): TableMaintainer {
    let m = this.maintainers.get(name);
    if (!m) {
      m = new TableMaintainer(async () => (await this.existing(name))!, evaluationIndexes(this.options.vectorIndexMinRows), this.options);
      this.maintainers.set(name, m);
    }
    return m;
  }

  /** A write to an existing table: never overlaps its compaction, and schedules maintenance. */
  private async write<T>(name: string, fn: (t: Table) => Promise<T>): Promise<T | undefined> {
    this.rowCounts.delete(name);
    const t = await this.existing(name);
    if (!t) return undefined;
    const m = this.maintainer(name);
    try {
      return await m.exclusive(() => fn(t));
    } finally {
      m.touch();
    }
  }

  /** Runs pending maintenance of every table now and waits for it (benchmarks, tests, shutdown). */
  async maintain(): Promise<void> {
    for (const m of this.maintainers.values()) await m.flush();
  }

  /** Every table of the namespace is this store's: no other surface writes there. */
  private async ownTables(): Promise<string[]> {
    return this.db.tableNames();
  }

  private async existing(name: string): Promise<Table | null> {
    const cached = this.tables.get(name);
    if (cached) return cached;
    const listed = (await this.db.tableNames()).includes(name);
    // Another call of this process may have begun creating the table while the listing ran; the
    // listing can show its folder before the first commit, when opening it fails. Opening then
    // would also replace the creation in the cache with that failure, and every later write to
    // the table would fail with it (seen: a collection's second document, variants side by side).
    const meanwhile = this.tables.get(name);
    if (meanwhile) return meanwhile;
    if (!listed) return null;
    // Listed is not yet committed: a table another process is creating, or whose creator was
    // killed, has no rows to read and opens as none (seen: a worker taking over a killed one's
    // unit failed its start-up sweep while the other worker created a table).
    const opening = openCommittedTable(this.db, name);
    this.tables.set(name, opening);
    // Only an opened table is kept: after none or a failure, the next call lists and opens again.
    const forget = () => this.tables.get(name) === opening && this.tables.delete(name);
    opening.then((table) => table ?? forget(), forget);
    return opening;
  }

  async add(table: string, rows: VectorRow[]): Promise<void> {
    if (rows.length === 0) return;
    const data = rows.map((r) => ({
      chunk_id: r.chunkId,
      document_id: r.documentId,
      strategy: r.strategy,
      generation: r.generation,
      text: r.text,
      vector: Array.from(r.vector),
    }));
    if (await this.existing(table)) {
      await this.write(table, (t) => t.add(data));
      return;
    }
    // Another add of this process (a variant processed alongside) began creating it while we
    // looked: add once it exists, rather than racing its creation.
    if (this.tables.has(table)) return this.add(table, rows);
    const creating = (async () => {
      const { table: t, created } = await createOrOpenTable(this.db, table, () => this.db.createTable(table, data));
      // Another process sharing the data directory created it first: add to theirs.
      if (!created) await t.add(data);
      return t;
    })();
    this.tables.set(table, creating);
    try {
      await creating;
    } catch (error) {
      this.tables.delete(table);
      throw error;
    }
    this.maintainer(table).touch();
  }

  async search(table: string, vector: Float32Array, scopes: VectorScope[], limit: number): Promise<VectorHit[]> {
    const t = await this.existing(table);
    // Only a processed strategy is searched, so its table exists; if the store cannot find it
    // (deleted, or an object store that lists no tables), answering from nothing would hide it.
    if (!t) throw missingVectorsError();
    const query = t.vectorSearch(Array.from(vector)).distanceType("cosine").where(scopesFilter(scopes)).select(["chunk_id", "_distance"]).limit(limit);
    const rows = scopes.reduce((n, s) => n + (s.chunkCount ?? 0), 0);
    // HNSW refuses a search breadth below the candidates it must return (limit x refine factor).
    if (await this.approximate(table, t, rows)) query.refineFactor(VECTOR_QUERY.refineFactor).ef(Math.max(VECTOR_QUERY.ef, limit * VECTOR_QUERY.refineFactor));
    else query.bypassVectorIndex();
    const found = await query.toArray();
    return found.map((r: { chunk_id: string; _distance: number }) => ({ chunkId: r.chunk_id, score: 1 - r._distance }));
  }

  /**
   * Whether a search over `rows` of a table goes through its ANN index: only when they are many
   * (past `vectorIndexMinRows`) and most of the table. A prefilter that keeps a small share of
   * the rows starves the graph search: measured on 120k clustered vectors, one strategy's sixth
   * of the table gave recall@10 0.918, while the whole table gave 0.994. Smaller shares are
   * scanned exactly, which costs in proportion to the rows kept.
   */
  private async approximate(name: string, table: Table, rows: number): Promise<boolean> {
    if (rows < this.options.vectorIndexMinRows) return false;
    let counted = this.rowCounts.get(name);
    if (!counted || Date.now() - counted.at > ROW_COUNT_TTL_MS) {
      counted = { rows: await table.countRows(), at: Date.now() };
      this.rowCounts.set(name, counted);
    }
    return rows >= ANN_MIN_SHARE * counted.rows;
  }

  async deleteGeneration(table: string, scope: VectorScope): Promise<void> {
    await this.write(table, (t) => t.delete(scopeFilter(scope)));
  }

  async deleteDocument(documentId: string): Promise<void> {
    for (const name of await this.ownTables()) {
      await this.write(name, (t) => t.delete(`document_id = ${sqlString(documentId)}`));
    }
  }

  async inventory(): Promise<VectorEntry[]> {
    const out: VectorEntry[] = [];
    for (const name of await this.ownTables()) {
      const t = await this.existing(name);
      if (!t) continue;
      const rows = (await t.query().select(["chunk_id", "document_id", "strategy", "generation"]).toArray()) as Array<Record<string, string>>;
      for (const r of rows) out.push({ vectorSpace: name, chunkId: r.chunk_id!, documentId: r.document_id!, strategy: r.strategy!, generation: r.generation! });
    }
    return out;
  }

  async close(): Promise<void> {
    for (const m of this.maintainers.values()) await m.close();
    for (const t of this.tables.values()) (await t.catch(() => null))?.close();
    this.tables.clear();
    this.db.close();
  }
}
