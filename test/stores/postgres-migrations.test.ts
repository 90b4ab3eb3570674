import { before, test } from "node:test";
import assert from "node:assert/strict";
import type pg from "pg";
import { createPool } from "../../src/stores/postgres/executor.js";
import { MIGRATIONS, migrate } from "../../src/stores/postgres/migrations.js";
import { testPostgres, type PostgresServer } from "../helpers/postgres.js";

let server: PostgresServer;
// Empty databases on the run's server: each test migrates from nothing.
before(async () => (server = await testPostgres()));

async function withPools<T>(count: number, fn: (pools: pg.Pool[]) => Promise<T>): Promise<T> {
  const uri = await server.createDatabase();
  const pools = Array.from({ length: count }, () => createPool(uri));
  try {
    return await fn(pools);
  } finally {
    await Promise.all(pools.map((p) => p.end()));
  }
}

const recorded = async (pool: pg.Pool) =>
  (await pool.query<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version")).rows.map((r) => r.version);
const tables = async (pool: pg.Pool) =>
  (await pool.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).rows.map((r) => r.tablename);

test("a fresh database gets every migration, recorded in order, and the same tables as the SQLite store", async () => {
  await withPools(1, async ([pool]) => {
    assert.equal(await migrate(pool!), MIGRATIONS.length);
    assert.deepEqual(
      await recorded(pool!),
      MIGRATIONS.map((_, i) => i + 1),
    );
    const names = await tables(pool!);
    for (const table of [
      "documents",
      "document_strategies",
      "chunks",
      "queries",
      "experiments",
      "experiment_results",
      "jobs",
      "tenants",
      "api_keys",
      "tenant_domains",
      "source_files",
      "ingestion_jobs",
      "pending_generations",
      "collections",
      "collection_documents",
      "data_directory",
      "embeddings",
      "completions",
    ]) {
      assert.ok(names.includes(table), `${table} in ${names.join(", ")}`);
    }
    const { rows } = await pool!.query<{ id: string }>("SELECT id FROM data_directory");
    assert.equal(rows.length, 1);
    assert.match(rows[0]!.id, /^dd_[0-9a-f]{16}$/);
  });
});

test("migrating again applies nothing and changes nothing", async () => {
  await withPools(1, async ([pool]) => {
    await migrate(pool!);
    const id = (await pool!.query("SELECT id FROM data_directory")).rows[0].id;
    assert.equal(await migrate(pool!), 0);
    assert.deepEqual(
      await recorded(pool!),
      MIGRATIONS.map((_, i) => i + 1),
    );
    assert.equal((await pool!.query("SELECT id FROM data_directory")).rows[0].id, id, "the store's id is made once");
  });
});

test("several replicas migrating one fresh database at once apply each migration once", async () => {
  await withPools(4, async (pools) => {
    const applied = await Promise.all(pools.map((pool) => migrate(pool)));
    assert.equal(
      applied.reduce((a, b) => a + b, 0),
      MIGRATIONS.length,
      `applied per replica: ${applied.join(", ")}`,
    );
    assert.deepEqual(
      await recorded(pools[0]!),
      MIGRATIONS.map((_, i) => i + 1),
    );
    assert.equal((await pools[0]!.query("SELECT count(*)::int AS n FROM data_directory")).rows[0].n, 1);
  });
});

test("a database at the first migration upgrades to the latest and keeps its rows", async () => {
  await withPools(1, async ([pool]) => {
    assert.equal(await migrate(pool!, MIGRATIONS.slice(0, 1)), 1);
    assert.ok(!(await tables(pool!)).includes("collections"));
    await pool!.query(
      `INSERT INTO documents (id, filename, format, title, paragraph_count, text, blocks_json, file_path, content_hash, created_at)
       VALUES ('doc_1', 'a.md', 'markdown', 'A', 1, 'text', '[]', '/a', 'h', '2026-01-01T00:00:00Z')`,
    );
    await pool!.query(`INSERT INTO jobs (id, job_type, status, params_json, created_at) VALUES ('job_1', 'bench', 'completed', '{}', '2026-01-01T00:00:00Z')`);
    assert.equal(await migrate(pool!), MIGRATIONS.length - 1);
    assert.deepEqual(
      await recorded(pool!),
      MIGRATIONS.map((_, i) => i + 1),
    );
    assert.equal((await pool!.query("SELECT filename FROM documents WHERE id = 'doc_1'")).rows[0].filename, "a.md");
    const job = (await pool!.query("SELECT status, owner_instance, heartbeat_at_ms FROM jobs WHERE id = 'job_1'")).rows[0];
    assert.deepEqual(job, { status: "completed", owner_instance: null, heartbeat_at_ms: null }, "columns added by later migrations are there, empty");
    assert.ok((await tables(pool!)).includes("collections"));
  });
});

test("a migration that fails is rolled back and not recorded", async () => {
  await withPools(1, async ([pool]) => {
    await assert.rejects(migrate(pool!, [...MIGRATIONS.slice(0, 1), "CREATE TABLE half_done (x INTEGER); SELECT no_such_function();"]));
    assert.deepEqual(await recorded(pool!), [1]);
    assert.ok(!(await tables(pool!)).includes("half_done"));
  });
});
