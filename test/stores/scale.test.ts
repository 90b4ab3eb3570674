import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startServer } from "../../src/transports/http/server.js";
import type { Db } from "../../src/stores/sqlite/database.js";
import type { SqliteMetadataStore } from "../../src/stores/sqlite/metadata-store.js";
import { currentOwner } from "../../src/stores/owner.js";
import { createWorkspace, type Workspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { startS3Server } from "../helpers/s3-server.js";

/** Bytes under a folder, recursively (what `du` would count). */
function folderBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => {
    const path = join(dir, e.name);
    return sum + (e.isDirectory() ? folderBytes(path) : statSync(path).size);
  }, 0);
}

test("re-processing a document ten times keeps the data directory within 1.5x of its size after the first time", async () => {
  // Retention 0: every version older than now may go, so the test need not wait for it. Its own
  // cache, in the data directory as by default: the directory measured holds the cache too.
  const ws = await createWorkspace({ vector_version_retention_seconds: 0 }, {}, { ownCache: true });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const strategies = ["recursive", "contextual_retrieval", "semantic_parent_child"];
    await ws.app.process(doc.id, strategies);
    const vectors = await ws.internals.context.vectors();
    const db = sqliteDb(ws);
    // SQLite's write-ahead log is a transient file bounded by its auto-checkpoint; fold it into
    // the database before measuring, so both figures count stored data only.
    const settle = async () => {
      await vectors.maintain();
      db.pragma("wal_checkpoint(TRUNCATE)");
    };
    await settle();
    const dataDir = ws.app.config.dataDir;
    const first = folderBytes(dataDir);
    for (let i = 0; i < 10; i++) {
      const result = await ws.app.process(doc.id, strategies);
      assert.deepEqual(result.strategiesFailed, []);
    }
    await settle();
    const after = folderBytes(dataDir);
    assert.ok(after <= first * 1.5, `data directory grew from ${first} to ${after} bytes (${(after / first).toFixed(2)}x)`);
    const answer = await ws.app.ask({ documentId: doc.id, strategy: "contextual_retrieval", question: "How much does a member share cost?" });
    assert.ok(answer.retrievedChunks.length > 0, "the current generation still answers after compaction");
  } finally {
    await ws.cleanup();
  }
});

test("deleting the last document of a table frees its vectors' files at the next upkeep", async () => {
  const ws = await createWorkspace({ vector_version_retention_seconds: 0 });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    assert.deepEqual((await ws.app.process(doc.id, ["recursive", "semantic_parent_child"])).strategiesFailed, []);
    const vectors = await ws.internals.context.vectors();
    await vectors.maintain();
    const namespace = join(ws.app.config.vectorStoreUri, "evaluation");
    const full = folderBytes(namespace);
    await ws.app.deleteDocument(doc.id);
    await vectors.maintain();
    const emptied = folderBytes(namespace);
    // An emptied table keeps its schema, indexes' metadata and one manifest; its data files go.
    assert.ok(emptied < full * 0.3, `evaluation vectors: ${full} bytes before the delete, ${emptied} after the upkeep`);
  } finally {
    await ws.cleanup();
  }
});

test("the vector store's upkeep builds scalar indexes on the scope columns", async () => {
  const ws = await createWorkspace({ vector_version_retention_seconds: 0 });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    await (await ws.internals.context.vectors()).maintain();
    const lancedb = await import("@lancedb/lancedb");
    const db = await lancedb.connect(join(ws.app.config.vectorStoreUri, "evaluation"));
    const [name] = await db.tableNames();
    const table = await db.openTable(name!);
    const columns = (await table.listIndices()).flatMap((i) => i.columns).sort();
    assert.deepEqual(columns, ["document_id", "generation", "strategy"]);
    table.close();
    db.close();
  } finally {
    await ws.cleanup();
  }
});

/** Counts the SQL statements run through `db` while `fn` runs. */
/** The workspace's SQLite connection (these tests measure the SQLite adapter). */
const sqliteDb = (ws: Workspace): Db => (ws.internals.metadataStore as SqliteMetadataStore).db;

async function countStatements<T>(db: Db, fn: () => Promise<T>): Promise<{ result: T; statements: number }> {
  let statements = 0;
  const prepare = db.prepare.bind(db);
  const counted = ((sql: string) => {
    const stmt = prepare(sql);
    return new Proxy(stmt, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (key === "all" || key === "get" || key === "run" || key === "iterate") statements++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }) as typeof db.prepare;
  (db as { prepare: typeof db.prepare }).prepare = counted;
  try {
    return { result: await fn(), statements };
  } finally {
    (db as { prepare: typeof db.prepare }).prepare = prepare;
  }
}

test("GET /documents, /experiments, /v1/domains and /v1/points pages cost the same number of queries for 2 rows as for 40", async () => {
  const ws = await createWorkspace();
  try {
    const ctx = ws.internals.context;
    const db = sqliteDb(ws);
    for (let i = 0; i < 40; i++) {
      const id = `doc_${String(i).padStart(3, "0")}`;
      await ctx.documents.insert({
        id,
        filename: `f${i}.docx`,
        format: "docx",
        title: "t",
        paragraphCount: 1,
        text: "x",
        blocks: [],
        filePath: "/nowhere",
        contentHash: `h${i}`,
        createdAt: `2026-01-01T00:00:${String(i).padStart(2, "0")}`,
      });
      for (const strategy of i % 2 ? ["recursive", "fixed_size"] : ["semantic"]) {
        const generation = `gen_${i}_${strategy}`;
        await ctx.chunks.beginGeneration({ documentId: id, strategy, generation, vectorSpace: "chunks_hash_512" }, currentOwner());
        await ctx.chunks.commitGeneration(
          {
            documentId: id,
            strategy,
            generation,
            options: {},
            embedder: "hash",
            vectorSpace: "chunks_hash_512",
            retrieval: "dense",
            chunkCount: i + 1,
            processedAt: "2026-01-01T00:00:00",
          },
          [],
        );
      }
    }
    const small = await countStatements(db, () => ctx.documents.list(0, 2));
    const large = await countStatements(db, () => ctx.documents.list(0, 40));
    assert.equal(small.statements, 2, "one query for the page, one for the total");
    assert.equal(large.statements, small.statements);
    assert.equal(large.result.total, 40);
    assert.deepEqual(large.result.items[0], {
      id: "doc_039",
      filename: "f39.docx",
      paragraphCount: 1,
      chunkCounts: { fixed_size: 40, recursive: 40 },
      createdAt: "2026-01-01T00:00:39",
    });
    assert.deepEqual(large.result.items[1]!.chunkCounts, { semantic: 39 });
    assert.deepEqual((await ctx.documents.record("doc_039"))!.chunkCounts, large.result.items[0]!.chunkCounts, "a single document reads the same counts");
    const experiments = await countStatements(db, () => ctx.experiments.list(0, 50));
    assert.equal(experiments.statements, 2);
    // /v1 domains: one query per page, however many domains the tenant has.
    const tenant = await ws.app.tenants.createTenant("acme");
    for (let i = 0; i < 40; i++) await ws.app.tenants.createDomain(tenant.id, `d${String(i).padStart(2, "0")}`, `Domain ${i}`);
    const domains = await countStatements(db, () => ws.internals.tenantsRepo.listDomains(tenant.id, 10, 5));
    assert.equal(domains.statements, 1);
    assert.deepEqual([domains.result.total, domains.result.items.map((d) => d.domain)], [40, ["d10", "d11", "d12", "d13", "d14"]]);
    assert.equal((await ws.internals.tenantsRepo.listDomains(tenant.id, 100, 5)).total, 40, "a page past the end still counts");
    // /v1 points: which points a page holds comes from the live versions' point counts, in one query.
    const repo = ws.internals.ingestionRepo;
    for (let i = 0; i < 40; i++) {
      const [jobId, fileId, filename] = [`ing_${i}`, `file_${i}`, `f${i % 20}.docx`]; // f0..f19, each in versions 1 and 2
      await repo.insertJob({ id: jobId, tenantId: tenant.id, domain: "d00", filename, createdAt: "2026-01-01T00:00:00" }, currentOwner());
      const version = await repo.allocateSourceFile(
        { id: fileId, tenantId: tenant.id, domain: "d00", filename, contentHash: "h", objectPath: "/x", createdAt: "2026-01-01" },
        jobId,
      );
      await repo.commitSourceFile(fileId, jobId, 10);
      await repo.markPublished(tenant.id, "d00", filename, version);
    }
    const points = await countStatements(db, () => repo.livePointPage(tenant.id, {}, 95, 10));
    assert.equal(points.statements, 1);
    // Live: version 2 of each name (file_20..file_39), 10 points each, by name: f0, f1, f10, ..., f17 is the 10th.
    assert.deepEqual(points.result, {
      total: 200,
      slices: [
        { fileId: "file_37", from: 5, to: 10 },
        { fileId: "file_38", from: 0, to: 5 },
      ],
    });
  } finally {
    await ws.cleanup();
  }
});

test("vector_store_uri: an invalid scheme is a configuration error; a local path is resolved", async () => {
  const { loadConfig } = await import("../../src/config/load.js");
  const bad = loadConfig({ cwd: "/tmp", env: {}, flags: { vector_store_uri: "http://example/x" } });
  assert.match(bad.errors.join("\n"), /vector_store_uri: "http:\/\/example\/x" is not a local path or an s3:\/\/bucket\/path/);
  assert.equal(loadConfig({ cwd: "/tmp", env: {}, flags: { vector_store_uri: "vectors" } }).config.vectorStoreUri, "/tmp/vectors");
  for (const typo of ["s3:/bucket/x", "S3:bucket"]) {
    assert.match(
      loadConfig({ cwd: "/tmp", env: {}, flags: { vector_store_uri: typo } }).errors.join("\n"),
      /is not a local path or an s3:\/\/bucket\/path/,
      typo,
    );
  }
  assert.equal(loadConfig({ cwd: "/tmp", env: {}, flags: { data_dir: "/srv/ce" } }).config.vectorStoreUri, "/srv/ce/lancedb");
  assert.equal(loadConfig({ cwd: "/tmp", env: { CHUNKEVAL_VECTOR_STORE_URI: "s3://bucket/vectors" } }).config.vectorStoreUri, "s3://bucket/vectors");
});

test("vector_store_uri on an S3-compatible server: process, ask, bench, /v1 upload and search keep every vector in the bucket", async () => {
  const s3 = await startS3Server();
  // LanceDB's object store reads endpoint, region and credentials from the environment.
  const saved = Object.fromEntries(Object.keys(s3.env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, s3.env);
  const ws = await createWorkspace({ vector_store_uri: `s3://${s3.bucket}/lancedb`, vector_version_retention_seconds: 0 });
  try {
    const app = ws.app;
    const doc = await app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const processed = await app.process(doc.id, ["recursive", "contextual_retrieval"]);
    assert.deepEqual(processed.strategiesFailed, []);
    const query = await app.ask({ documentId: doc.id, strategy: "contextual_retrieval", question: "How much does a member share cost?" });
    assert.match(query.retrievedChunks.map((c) => c.text).join(" "), /100 euros/);
    const questions = JSON.parse(readFileSync(new URL("../../questions/harbor-light-handbook.json", import.meta.url), "utf8")).slice(0, 3);
    // A full benchmark (retrieval, answers, judging), every vector it searches read from the bucket.
    const experiment = await app.bench({ document: { id: doc.id }, questions, questionsSource: "inline", strategies: ["recursive", "contextual_retrieval"] });
    for (const strategy of ["recursive", "contextual_retrieval"]) {
      const m = experiment.aggregateMetrics[strategy]!;
      assert.equal(m.failedQuestions, 0, strategy);
      assert.ok(m.hitRate !== null && m.hitRate > 0, `${strategy}: hit rate ${m.hitRate}`);
      assert.ok(m.avgAnswerSimilarity !== null && m.compositeScore !== null, strategy);
      // The hash embedder is word overlap: the offline judge has no evidence independent of its retrieval.
      assert.equal(m.avgContextRelevance, null, strategy);
      assert.ok(m.missing.avg_context_relevance, strategy);
    }
    assert.ok(experiment.bestStrategy, "a best strategy is named");
    await (await ws.internals.context.vectors()).maintain();

    const acme = await app.tenants.createTenant("acme");
    const auth = { authorization: `Bearer ${(await app.tenants.createApiKey("acme", ["files:write", "domains:read", "domains:write"])).secret}` };
    const server = await startServer(app, { host: "127.0.0.1", port: 0 });
    try {
      const ready = await fetch(`${server.url}/readyz`);
      const created = await fetch(`${server.url}/v1/domains`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ domain: "handbooks", display_name: "Handbooks" }),
      });
      assert.equal(created.status, 201);
      const form = new FormData();
      form.append("domain", "handbooks");
      form.append("file", new Blob([handbookBytes()]), "handbook.docx");
      const uploaded = await fetch(`${server.url}/v1/files`, { method: "POST", headers: auth, body: form });
      const body = (await uploaded.json()) as { chunks_indexed: number };
      assert.equal(uploaded.status, 201, JSON.stringify(body));
      assert.ok(body.chunks_indexed > 0);
      const search = await fetch(`${server.url}/v1/search`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ query: "member share price", top_k: 3 }),
      });
      const hits = (await search.json()) as { items: Array<{ text: string }> };
      assert.equal(search.status, 200);
      assert.equal(hits.items.length, 3);
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200, `readyz before the first upload answered ${ready.status}`);
    } finally {
      await server.close();
    }
    assert.equal(existsSync(join(app.config.dataDir, "lancedb")), false, "nothing was written to the local LanceDB folder");
    const tablesUnder = async (prefix: string) => {
      const listing = await (await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2&prefix=${prefix}&delimiter=/`)).text();
      return [...listing.matchAll(/<CommonPrefixes><Prefix>[^<]*?([^</]+)\/<\/Prefix>/g)].map((m) => m[1]).sort();
    };
    assert.deepEqual(
      await tablesUnder("lancedb/"),
      ["evaluation", "owner.lance", "v1"],
      "each surface in its own namespace, beside the record of the data directory that owns the store",
    );
    assert.deepEqual(await tablesUnder("lancedb/evaluation/"), ["chunks_hash_512.lance"]);
    assert.deepEqual(await tablesUnder("lancedb/v1/"), ["chunks.lance", `points_${acme.id}.lance`], "the collection and the tenant's table");
  } finally {
    await ws.cleanup();
    for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
    await s3.close();
  }
});

test("a process sees vectors another process sharing the data directory wrote after it opened the table", async () => {
  const server = await createWorkspace();
  const { loadConfig } = await import("../../src/config/load.js");
  const { createChunkeval } = await import("../../src/chunkeval.js");
  const cli = await createChunkeval(
    loadConfig({ cwd: server.dir, env: { CHUNKEVAL_EMBEDDER_WORKERS: "0" }, flags: { data_dir: server.app.config.dataDir, embedder: "hash" } }).config,
  );
  try {
    const first = await cli.upload({ filename: "a.docx", bytes: handbookBytes() });
    await cli.process(first.id, ["recursive"]);
    const question = "How much does a member share cost?";
    assert.ok((await server.app.ask({ documentId: first.id, strategy: "recursive", question })).retrievedChunks.length > 0, "the server opened the table");
    const second = await cli.upload({ filename: "b.docx", bytes: handbookBytes() }, { forceNew: true });
    await cli.process(second.id, ["recursive"]);
    const answer = await server.app.ask({ documentId: second.id, strategy: "recursive", question });
    assert.equal(answer.retrievedChunks.length, 5, "vectors committed by the other process are found");
  } finally {
    await cli.close();
    await server.cleanup();
  }
});

/** An 8-dimension vector per integer; from 1, since vector(0) is all zeros and has no cosine distance to anything. */
const sineVector = (i: number) => Float32Array.from({ length: 8 }, (_, d) => Math.sin(i * (d + 1)));

/** `n` live /v1 points of a tenant numbered from `from`, each with its sine vector. */
function sinePoints(tenantId: string, from: number, n: number) {
  return Array.from({ length: n }, (_, k) => from + k).map((i) => ({
    pointId: `p${i}`,
    tenantId,
    domain: "d",
    sourceFileId: "f",
    filename: "x.docx",
    version: 1,
    chunkIndex: i,
    text: `text ${i}`,
    start: 0,
    end: 1,
    deleted: false,
    ingestionJobId: "j",
    vector: sineVector(i),
  }));
}

test("upkeep folds each write into a new ANN index segment and rebuilds the index as one past MAX_VECTOR_INDEX_SEGMENTS, losing no point", async () => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { LancePointsStore } = await import("../../src/stores/vectors/lancedb/points.js");
  const { MAX_VECTOR_INDEX_SEGMENTS } = await import("../../src/stores/vectors/lancedb/maintenance.js");
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-segments-"));
  const store = await LancePointsStore.open(dir, { delayMs: 60_000, versionRetentionMs: 0, vectorIndexMinRows: 50 });
  try {
    await store.ensureCollection(8);
    const segments: number[] = [];
    const fragments: number[] = [];
    const writes = MAX_VECTOR_INDEX_SEGMENTS + 3;
    for (let w = 0; w < writes; w++) {
      await store.add(sinePoints("a", 1 + w * 60, 60));
      await store.maintain();
      const layout = await store.layout("a");
      segments.push(layout.vectorIndexSegments);
      fragments.push(layout.fragments);
    }
    // 1, 2, ... MAX, then the write that would make MAX + 1 segments leaves one.
    const afterWrite = (w: number) => (w < MAX_VECTOR_INDEX_SEGMENTS ? w + 1 : w - MAX_VECTOR_INDEX_SEGMENTS + 1);
    const expected = Array.from({ length: writes }, (_, w) => afterWrite(w));
    assert.deepEqual(segments, expected, `segments after each write's upkeep: ${segments.join(", ")}`);
    const all = await store.nearest("a", sineVector(7), undefined, writes * 60 + 10);
    assert.equal(all.length, writes * 60, "every point is still found after the rebuilds");
    assert.equal(new Set(all.map((r) => r.point_id)).size, writes * 60);
    assert.equal(all[0]!.point_id, "p7");
    assert.equal(fragments[MAX_VECTOR_INDEX_SEGMENTS], 1, `the rebuild's upkeep compacted the table to one fragment (fragments: ${fragments.join(", ")})`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a tenant table left with more index segments than upkeep keeps (its process stopped first) is rebuilt when next opened, without a write", async () => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const lancedb = await import("@lancedb/lancedb");
  const { LancePointsStore } = await import("../../src/stores/vectors/lancedb/points.js");
  const { MAX_VECTOR_INDEX_SEGMENTS } = await import("../../src/stores/vectors/lancedb/maintenance.js");
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-reopen-segments-"));
  const options = { delayMs: 20, versionRetentionMs: 0, vectorIndexMinRows: 50 };
  try {
    const first = await LancePointsStore.open(dir, options);
    await first.ensureCollection(8);
    await first.add(sinePoints("a", 1, 60));
    await first.maintain();
    await first.close();
    // Another writer's batches, each folded into a segment of its own and never rebuilt.
    const db = await lancedb.connect(dir);
    const name = (await db.tableNames()).find((n) => n.startsWith("points_"))!;
    const raw = await db.openTable(name);
    const template = (await raw.query().limit(1).toArray())[0] as Record<string, unknown>;
    const batches = MAX_VECTOR_INDEX_SEGMENTS;
    for (let b = 0; b < batches; b++) {
      const rows = sinePoints("a", 1000 + b * 20, 20).map((p) => ({
        ...template,
        point_id: p.pointId,
        chunk_index: p.chunkIndex,
        text: p.text,
        vector: Array.from(p.vector),
      }));
      await raw.add(rows);
      await raw.optimize();
    }
    const vectorIndex = (await raw.listIndices()).find((i) => i.columns.includes("vector"))!;
    assert.equal((await raw.indexStats(vectorIndex.name))!.numIndices, MAX_VECTOR_INDEX_SEGMENTS + 1, "the table is left past the limit");
    raw.close();
    // This test reads while the upkeep rebuilds and compacts, so old versions must outlive those
    // reads, as the default retention ensures (with 0, a read can meet a data file just cleaned up).
    const reopened = await LancePointsStore.open(dir, { ...options, versionRetentionMs: 60_000 });
    try {
      assert.equal((await reopened.nearest("a", sineVector(7), undefined, 1))[0]!.point_id, "p7", "opening the tenant's table");
      const started = performance.now();
      while ((await reopened.layout("a")).vectorIndexSegments !== 1 && performance.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
      assert.equal((await reopened.layout("a")).vectorIndexSegments, 1, "rebuilt as one segment by the upkeep scheduled at open");
      assert.equal((await reopened.nearest("a", sineVector(7), undefined, 1000)).length, 60 + batches * 20, "no point lost");
    } finally {
      await reopened.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a failed upkeep is reported as a warning, retried later with backoff, surfaced by maintain(), and never fails close()", async () => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const lancedb = await import("@lancedb/lancedb");
  const { TableMaintainer } = await import("../../src/stores/vectors/lancedb/maintenance.js");
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-upkeep-failure-"));
  const db = await lancedb.connect(dir);
  const table = await db.createTable("t", [{ id: 1, text: "a" }]);
  // A real table whose plan names a column it lacks: every run fails at the index build.
  const maintainer = new TableMaintainer(async () => table, { scalar: [{ column: "missing", kind: "btree" }] }, { delayMs: 100, versionRetentionMs: 0 });
  const warnings: Array<{ message: string; at: number }> = [];
  const onWarning = (w: Error) => void (w.name === "ChunkevalUpkeepWarning" && warnings.push({ message: w.message, at: performance.now() }));
  process.on("warning", onWarning);
  try {
    assert.equal(await maintainer.needsUpkeep(), true, "a missing index of the plan is upkeep to schedule at open");
    const started = performance.now();
    maintainer.touch();
    while (warnings.length < 3 && performance.now() - started < 10_000) await new Promise((r) => setTimeout(r, 10));
    assert.equal(warnings.length, 3, "the failing run is retried without another write");
    assert.match(warnings[0]!.message, /attempt 1, retried later\): .*missing/i);
    assert.match(warnings[2]!.message, /attempt 3/);
    // Delays 100, 200 then 400 ms: each retry waits longer than the one before. Each gap between
    // two warnings also holds the failing run's own time (tens of ms, more on a busy machine), so
    // the delays are long enough for the doubling to show through it (at 20, 40, 80 ms a busy
    // machine once read 32, 124, 204 ms).
    assert.ok(
      warnings[2]!.at - warnings[1]!.at > warnings[1]!.at - warnings[0]!.at,
      `retries back off: ${warnings.map((w) => Math.round(w.at - started)).join(", ")} ms`,
    );
    await assert.rejects(maintainer.flush(), /missing/i, "an explicit run reports the failure");
    await maintainer.close();
    await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    const count = warnings.length;
    await new Promise((r) => setTimeout(r, 1000)); // past the next retry's delay (800 ms)
    assert.equal(warnings.length, count, "no retry after close");
    assert.equal(await table.countRows(), 1, "the table's rows are untouched");
  } finally {
    process.off("warning", onWarning);
    table.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("/v1 points past the row threshold get an ANN index that answers any top_k, and exact search agrees on the best match", async () => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { LancePointsStore } = await import("../../src/stores/vectors/lancedb/points.js");
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-ann-"));
  const store = await LancePointsStore.open(dir, { delayMs: 60_000, versionRetentionMs: 0, vectorIndexMinRows: 500 });
  try {
    await store.ensureCollection(8);
    await store.add(sinePoints("a", 1, 600));
    await store.add(sinePoints("b", 1, 100));
    assert.equal((await store.layout("a")).vectorIndexSegments, 0, "no index until upkeep runs");
    await store.maintain();
    assert.equal((await store.layout("a")).vectorIndexSegments, 1);
    assert.equal((await store.layout("b")).vectorIndexSegments, 0, "each tenant's table gets its index at the threshold of its own rows");
    const wide = await store.nearest("a", sineVector(7), undefined, 700);
    assert.equal(wide.length, 600, "a limit past the index's default search breadth still returns every live point of the tenant");
    assert.equal(wide[0]!.point_id, "p7");
    assert.equal((await store.nearest("a", sineVector(7), undefined, 1, { exact: true }))[0]!.point_id, "p7");
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
