import Database from "better-sqlite3";

export type Db = Database.Database;

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
];

/** Opens (creating if needed) the metadata database with WAL and foreign keys, and migrates it. */
export function openDatabase(path: string): Db {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = NORMAL");
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const applied = db.pragma("user_version", { simple: true }) as number;
  for (let i = applied; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i]!);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}
