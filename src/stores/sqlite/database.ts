import type BetterSqlite3 from "better-sqlite3";
import { Database } from "./driver.js";

export type Db = BetterSqlite3.Database;

export { DATABASE_FILE } from "./files.js";

/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many have run.
 * Append only: an applied migration is never edited.
 */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    filename TEXT NOT NULL,
    format TEXT NOT NULL,
    title TEXT NOT NULL,
    paragraph_count INTEGER NOT NULL,
    text TEXT NOT NULL,
    blocks_json TEXT NOT NULL,
    file_path TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE document_strategies (
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    strategy TEXT NOT NULL,
    generation TEXT NOT NULL,
    options_json TEXT NOT NULL,
    embedder TEXT NOT NULL,
    vector_table TEXT NOT NULL,
    retrieval TEXT NOT NULL,
    chunk_count INTEGER NOT NULL,
    processed_at TEXT NOT NULL,
    PRIMARY KEY (document_id, strategy)
  );
  CREATE TABLE chunks (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    strategy TEXT NOT NULL,
    generation TEXT NOT NULL,
    position INTEGER NOT NULL,
    role TEXT NOT NULL,
    parent_id TEXT,
    text TEXT NOT NULL,
    context TEXT,
    start_offset INTEGER NOT NULL,
    end_offset INTEGER NOT NULL,
    token_count INTEGER NOT NULL
  );
  CREATE INDEX chunks_by_strategy ON chunks (document_id, strategy, generation, position);
  CREATE TABLE queries (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    strategy TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    retrieved_json TEXT NOT NULL,
    latency_json TEXT NOT NULL,
    usage_json TEXT NOT NULL,
    generator TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE embedding_cache (
    embedder TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (embedder, text_hash)
  ) WITHOUT ROWID;
  CREATE TABLE completion_cache (
    model TEXT NOT NULL,
    prompt_hash TEXT NOT NULL,
    completion TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    PRIMARY KEY (model, prompt_hash)
  ) WITHOUT ROWID;
  `,
  `
  ALTER TABLE documents ADD COLUMN content_hash TEXT;
  CREATE INDEX documents_by_hash ON documents (content_hash);
  CREATE TABLE experiments (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    strategies_json TEXT NOT NULL,
    questions_count INTEGER NOT NULL,
    aggregate_json TEXT NOT NULL,
    best_strategy TEXT NOT NULL,
    total_latency_seconds REAL NOT NULL,
    estimated_cost_usd REAL NOT NULL,
    details_json TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE experiment_results (
    experiment_id TEXT NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    strategy TEXT NOT NULL,
    position INTEGER NOT NULL,
    result_json TEXT NOT NULL,
    PRIMARY KEY (experiment_id, strategy, position)
  );
  `,
  `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    job_type TEXT NOT NULL,
    status TEXT NOT NULL,
    params_json TEXT NOT NULL,
    result_json TEXT,
    error TEXT,
    progress TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
  );
  CREATE INDEX jobs_by_created ON jobs (created_at DESC);
  `,
  `
  CREATE TABLE tenants (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id),
    salt TEXT NOT NULL,
    hash TEXT NOT NULL,
    scopes_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE TABLE tenant_domains (
    tenant_id TEXT NOT NULL REFERENCES tenants(id),
    domain TEXT NOT NULL,
    display_name TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tenant_id, domain)
  );
  CREATE TABLE source_files (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id),
    domain TEXT NOT NULL,
    filename TEXT NOT NULL,
    version INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    object_path TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX source_files_by_name ON source_files (tenant_id, domain, filename, version);
  CREATE TABLE ingestion_jobs (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id),
    domain TEXT NOT NULL,
    filename TEXT NOT NULL,
    source_file_id TEXT,
    status TEXT NOT NULL,
    error_code TEXT,
    error TEXT,
    chunks_indexed INTEGER NOT NULL DEFAULT 0,
    points_created INTEGER NOT NULL DEFAULT 0,
    points_soft_deleted INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  `,
  // Several processes share a data directory: in-flight generations and jobs record their owner,
  // and /v1 versions are unique per file name (stores/README.md, "Several processes").
  `
  CREATE TABLE pending_generations (
    generation TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    strategy TEXT NOT NULL,
    vector_table TEXT NOT NULL,
    owner_instance TEXT NOT NULL,
    owner_pid INTEGER NOT NULL,
    owner_host TEXT NOT NULL,
    started_at_ms INTEGER NOT NULL
  );
  ALTER TABLE jobs ADD COLUMN owner_instance TEXT;
  ALTER TABLE jobs ADD COLUMN owner_pid INTEGER;
  ALTER TABLE jobs ADD COLUMN owner_host TEXT;
  ALTER TABLE jobs ADD COLUMN heartbeat_at_ms INTEGER;
  ALTER TABLE ingestion_jobs ADD COLUMN owner_instance TEXT;
  ALTER TABLE ingestion_jobs ADD COLUMN owner_pid INTEGER;
  ALTER TABLE ingestion_jobs ADD COLUMN owner_host TEXT;
  -- Versions given twice by the old read-then-insert race are renumbered so the rule can hold.
  UPDATE source_files SET version = (
    SELECT n.r FROM (
      SELECT id, ROW_NUMBER() OVER (PARTITION BY tenant_id, domain, filename ORDER BY version, created_at, rowid) AS r FROM source_files
    ) AS n WHERE n.id = source_files.id
  );
  ALTER TABLE source_files ADD COLUMN committed INTEGER NOT NULL DEFAULT 1;
  DROP INDEX source_files_by_name;
  CREATE UNIQUE INDEX source_files_version ON source_files (tenant_id, domain, filename, version);
  `,
  // The recommendation's confidence: the verdict sentence and the paired comparisons.
  `ALTER TABLE experiments ADD COLUMN verdict_json TEXT;`,
  // List pages read the index alone: without it, finding the newest documents reads every row,
  // texts included (GET /documents at 1,000 documents: 33 ms a page).
  `CREATE INDEX documents_by_created ON documents (created_at DESC, id, filename, paragraph_count);
   CREATE INDEX experiments_by_created ON experiments (created_at DESC, id, document_id, strategies_json);`,
  // A failed ingestion whose points could not be removed then (the vector store failed too):
  // the next server start removes them.
  `ALTER TABLE ingestion_jobs ADD COLUMN points_left INTEGER NOT NULL DEFAULT 0;`,
  // A committed version whose publication failed (the vector store failing): the next server
  // start publishes it.
  `ALTER TABLE ingestion_jobs ADD COLUMN publish_pending INTEGER NOT NULL DEFAULT 0;`,
  // How many points a committed version has, so GET /v1/points pages are worked out in SQL
  // (NULL on rows from before: a server start counts them in the vector store once).
  `ALTER TABLE source_files ADD COLUMN point_count INTEGER;`,
  // Whether a committed version's points were made live in the vector store: GET /v1/points
  // lists what search finds, also while a publication is pending. Versions committed before
  // were published with their commit.
  `ALTER TABLE source_files ADD COLUMN published INTEGER NOT NULL DEFAULT 0;
   UPDATE source_files SET published = committed;`,
  // Who this data directory is, so that a vector store it shares with another data directory
  // (one vector_store_uri set for both) is refused instead of having its vectors swept as orphans.
  `CREATE TABLE data_directory (id TEXT NOT NULL);
   INSERT INTO data_directory (id) VALUES ('dd_' || lower(hex(randomblob(8))));`,
  // Collections: named sets of documents benchmarked together. A deleted document leaves
  // every collection with it (the cascade), so a collection never names a missing document.
  `CREATE TABLE collections (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     created_at TEXT NOT NULL
   );
   -- filename: the document's name in this collection (what references name), which is the
   -- name it was added under: the same bytes uploaded before under another name are one document.
   CREATE TABLE collection_documents (
     collection_id TEXT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
     document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
     filename TEXT NOT NULL,
     position INTEGER NOT NULL,
     PRIMARY KEY (collection_id, document_id),
     UNIQUE (collection_id, filename)
   );
   CREATE INDEX collection_documents_by_document ON collection_documents (document_id);`,
  // What reading a document warned of (pages of glyph codes left out), kept so that whoever uses
  // the document later (a collection, a benchmark, documents show) is told too; NULL: no warning.
  `ALTER TABLE documents ADD COLUMN warnings_json TEXT;`,
];

/** The data directory's own id (made by its first migration run, then never changed). */
export function dataDirectoryId(db: Db): string {
  return (db.prepare("SELECT id FROM data_directory").get() as { id: string }).id;
}

/**
 * Opens (creating if needed) the metadata database, or with `migrations` another database such as
 * the cache's, with WAL, a busy timeout and foreign keys, and migrates it.
 */
export function openDatabase(path: string, migrations: readonly string[] = MIGRATIONS, options: { autoVacuum?: "incremental" } = {}): Db {
  const db = new Database(path);
  // First, so that even switching to WAL waits for another process instead of failing.
  db.pragma("busy_timeout = 5000");
  // On a new, empty file only (it takes effect before the first table): on an existing file the
  // pragma changes nothing yet needs the write lock, so opening would wait for other processes.
  if (options.autoVacuum && db.pragma("page_count", { simple: true }) === 0) db.pragma(`auto_vacuum = ${options.autoVacuum}`);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.pragma("synchronous = NORMAL");
  migrate(db, migrations);
  return db;
}

/**
 * Two processes may open a fresh data directory at once: the version is read inside an
 * immediate (write-locked) transaction, so only one of them applies each migration.
 */
function migrate(db: Db, migrations: readonly string[]): void {
  if ((db.pragma("user_version", { simple: true }) as number) >= migrations.length) return;
  for (;;) {
    const more = db
      .transaction(() => {
        const applied = db.pragma("user_version", { simple: true }) as number;
        const next = migrations[applied];
        if (next === undefined) return false;
        db.exec(next);
        db.pragma(`user_version = ${applied + 1}`);
        return true;
      })
      .immediate();
    if (!more) return;
  }
}
