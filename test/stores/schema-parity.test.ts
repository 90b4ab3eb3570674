// Issue 37 item 4: the metadata store's schema is written twice, once per adapter (SQLite's
// stores/sqlite/database.ts and cache-repos.ts, PostgreSQL's stores/postgres/migrations.ts). This
// compares what each builds, table by table and column by column, with nullability: a column added to
// one and not the other, or NOT NULL in one only, fails here unless it is a difference listed below,
// each with its reason.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { metadataBackendFor } from "../../src/stores/metadata/registry.js";
import { openDatabase } from "../../src/stores/sqlite/database.js";
import { openCacheDatabase } from "../../src/stores/sqlite/cache-repos.js";
import { testPostgres } from "../helpers/postgres.js";

/** Per table, per column: whether it is NOT NULL (a primary key's columns count as not null). */
type Schema = Record<string, Record<string, boolean>>;

/** What only one adapter has, by design; the reason is the documentation. */
const EXPECTED_DIFFERENCES: Record<string, string> = {
  // PostgreSQL orders rows by an identity column where SQLite uses its implicit rowid.
  "api_keys.seq": "postgres only: insertion order (SQLite's rowid)",
  "documents.seq": "postgres only: insertion order (SQLite's rowid)",
  "experiments.seq": "postgres only: insertion order (SQLite's rowid)",
  "ingestion_jobs.seq": "postgres only: insertion order (SQLite's rowid)",
  "jobs.seq": "postgres only: insertion order (SQLite's rowid)",
  "tenants.seq": "postgres only: insertion order (SQLite's rowid)",
  // The shared job queue is PostgreSQL's (stores/postgres/job-queue.ts); on SQLite jobs run in the server that queued them.
  "jobs.queued": "postgres only: the shared queue",
  "jobs.attempts": "postgres only: the shared queue",
  "jobs.input_json": "postgres only: the shared queue",
  "jobs.lease_owner": "postgres only: the shared queue",
  "jobs.lease_expires_at_ms": "postgres only: the shared queue",
  "jobs.llm_calls": "postgres only: the shared queue's chat-call budget per job",
  originals: "postgres only: uploaded originals live in the database every replica reads (files in the data directory beside SQLite)",
  schema_migrations: "postgres only: applied migrations (SQLite keeps its version in PRAGMA user_version)",
  source_file_names: "postgres only: a row per /v1 file name, locked to allocate its next version (SQLite's writes are serialised)",
  embedding_cache: "sqlite only: the main database's cache from before cache_dir, moved into the cache database when found",
  completion_cache: "sqlite only: as embedding_cache",
};

async function sqliteSchema(dir: string): Promise<Schema> {
  const path = join(dir, "chunkeval.sqlite");
  // Opened through the registry, as the composition root opens it: every migration applied.
  await (await metadataBackendFor(`sqlite://${path}`).open(`sqlite://${path}`, { cacheDir: join(dir, "cache") })).close();
  const schema: Schema = {};
  // The caches live in their own database beside it (cache_dir); PostgreSQL keeps them in its one.
  for (const db of [openDatabase(path), openCacheDatabase(join(dir, "cache", "cache.db"))]) {
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
      for (const { name } of tables) {
        schema[name] = {};
        for (const c of db.prepare(`PRAGMA table_info(${name})`).all() as Array<{ name: string; notnull: number; pk: number }>) {
          schema[name][c.name] = c.notnull === 1 || c.pk > 0;
        }
      }
    } finally {
      db.close();
    }
  }
  return schema;
}

async function postgresSchema(dir: string): Promise<Schema> {
  const uri = await (await testPostgres()).createDatabase();
  await (await metadataBackendFor(uri).open(uri, { cacheDir: join(dir, "unused-cache") })).close();
  const client = new pg.Client({ connectionString: uri });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'");
    const schema: Schema = {};
    for (const r of rows as Array<{ table_name: string; column_name: string; is_nullable: string }>)
      (schema[r.table_name] ??= {})[r.column_name] = r.is_nullable === "NO";
    return schema;
  } finally {
    await client.end();
  }
}

/** Every difference between the two schemas: a table or column on one side only, or nullability that differs. */
function differences(sqlite: Schema, postgres: Schema): Array<{ where: string; what: string }> {
  const found: Array<{ where: string; what: string }> = [];
  for (const table of [...new Set([...Object.keys(sqlite), ...Object.keys(postgres)])].sort()) {
    if (!sqlite[table] || !postgres[table]) {
      found.push({ where: table, what: `table only in ${sqlite[table] ? "sqlite" : "postgres"}` });
      continue;
    }
    for (const column of [...new Set([...Object.keys(sqlite[table]), ...Object.keys(postgres[table])])].sort()) {
      const [a, b] = [sqlite[table][column], postgres[table][column]];
      if (a === undefined || b === undefined) found.push({ where: `${table}.${column}`, what: `column only in ${a === undefined ? "postgres" : "sqlite"}` });
      else if (a !== b) found.push({ where: `${table}.${column}`, what: `NOT NULL in ${a ? "sqlite" : "postgres"} only` });
    }
  }
  return found;
}

test("SQLite's and PostgreSQL's schemas have the same tables, columns and nullability, but for the differences listed with their reasons", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-schema-"));
  try {
    const [sqlite, postgres] = [await sqliteSchema(dir), await postgresSchema(dir)];
    assert.ok(Object.keys(sqlite).length > 15 && Object.keys(postgres).length > 15, "both schemas were read");
    const found = differences(sqlite, postgres);
    const unexpected = found.filter((d) => !(d.where in EXPECTED_DIFFERENCES));
    assert.deepEqual(unexpected, [], "a difference between the adapters' schemas that is not listed (add the column to both, or list it with its reason)");
    // Every listed difference still exists: a fixed one leaves the list.
    const stale = Object.keys(EXPECTED_DIFFERENCES).filter((where) => !found.some((d) => d.where === where));
    assert.deepEqual(stale, [], "listed differences that are gone");
    // The comparison finds what it is for: a column dropped from one side, a nullability changed.
    const { documents, ...rest } = postgres;
    const { filename: _dropped, ...documentsWithoutFilename } = documents!;
    const altered = differences(sqlite, { ...rest, documents: { ...documentsWithoutFilename, id: false } });
    assert.deepEqual(
      altered.filter((d) => d.where.startsWith("documents.") && d.where !== "documents.seq"),
      [
        { where: "documents.filename", what: "column only in sqlite" },
        { where: "documents.id", what: "NOT NULL in sqlite only" },
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
