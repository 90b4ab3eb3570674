import type pg from "pg";

/**
 * The PostgreSQL schema: the tables of the SQLite store (../sqlite/database.ts) in PostgreSQL's
 * terms, applied in order and recorded in `schema_migrations`. Append only: an applied migration
 * is never edited. Differences from SQLite: `seq` identity columns stand for SQLite's rowid
 * (insertion order breaks ties in lists), flags are BOOLEAN, vectors BYTEA, millisecond times
 * BIGINT; the caches (SQLite keeps them in `cache_dir`) are tables here, shared by every replica;
 * `source_file_names` holds one row per /v1 file name, locked to allocate its next version.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: documents, chunks, questions, benchmarks and background jobs.
  `
  CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    filename TEXT NOT NULL,
    format TEXT NOT NULL,
    title TEXT NOT NULL,
    paragraph_count INTEGER NOT NULL,
    text TEXT NOT NULL,
    blocks_json TEXT NOT NULL,
    file_path TEXT NOT NULL,
    content_hash TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX documents_by_hash ON documents (content_hash);
  CREATE INDEX documents_by_created ON documents (created_at DESC, seq DESC);
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
  CREATE TABLE experiments (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    document_id TEXT NOT NULL,
    strategies_json TEXT NOT NULL,
    questions_count INTEGER NOT NULL,
    aggregate_json TEXT NOT NULL,
    best_strategy TEXT NOT NULL,
    total_latency_seconds DOUBLE PRECISION NOT NULL,
    estimated_cost_usd DOUBLE PRECISION NOT NULL,
    details_json TEXT NOT NULL,
    verdict_json TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX experiments_by_created ON experiments (created_at DESC, seq DESC);
  CREATE TABLE experiment_results (
    experiment_id TEXT NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    strategy TEXT NOT NULL,
    position INTEGER NOT NULL,
    result_json TEXT NOT NULL,
    PRIMARY KEY (experiment_id, strategy, position)
  );
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
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
  CREATE INDEX jobs_by_created ON jobs (created_at DESC, seq DESC);
  `,
  // 2: the /v1 surface: tenants, keys, domains, source files (versions) and ingestion jobs.
  `
  CREATE TABLE tenants (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
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
  CREATE TABLE source_file_names (
    tenant_id TEXT NOT NULL REFERENCES tenants(id),
    domain TEXT NOT NULL,
    filename TEXT NOT NULL,
    PRIMARY KEY (tenant_id, domain, filename)
  );
  CREATE TABLE source_files (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id),
    domain TEXT NOT NULL,
    filename TEXT NOT NULL,
    version INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    object_path TEXT NOT NULL,
    committed BOOLEAN NOT NULL DEFAULT FALSE,
    published BOOLEAN NOT NULL DEFAULT FALSE,
    point_count INTEGER,
    created_at TEXT NOT NULL,
    UNIQUE (tenant_id, domain, filename, version)
  );
  CREATE TABLE ingestion_jobs (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
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
    points_left BOOLEAN NOT NULL DEFAULT FALSE,
    publish_pending BOOLEAN NOT NULL DEFAULT FALSE,
    owner_instance TEXT,
    owner_pid INTEGER,
    owner_host TEXT,
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  `,
  // 3: several processes on one store (owners of in-flight work), collections, the store's own
  // id, and the caches every replica shares.
  `
  CREATE TABLE pending_generations (
    generation TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    strategy TEXT NOT NULL,
    vector_table TEXT NOT NULL,
    owner_instance TEXT NOT NULL,
    owner_pid INTEGER NOT NULL,
    owner_host TEXT NOT NULL,
    started_at_ms BIGINT NOT NULL
  );
  ALTER TABLE jobs ADD COLUMN owner_instance TEXT;
  ALTER TABLE jobs ADD COLUMN owner_pid INTEGER;
  ALTER TABLE jobs ADD COLUMN owner_host TEXT;
  ALTER TABLE jobs ADD COLUMN heartbeat_at_ms BIGINT;
  CREATE TABLE collections (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE collection_documents (
    collection_id TEXT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    filename TEXT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (collection_id, document_id),
    UNIQUE (collection_id, filename)
  );
  CREATE INDEX collection_documents_by_document ON collection_documents (document_id);
  CREATE TABLE data_directory (id TEXT NOT NULL);
  INSERT INTO data_directory (id) VALUES ('dd_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16));
  CREATE TABLE embeddings (
    cache_key TEXT NOT NULL,
    embedder TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector BYTEA NOT NULL,
    last_used_ms BIGINT NOT NULL,
    PRIMARY KEY (cache_key, text_hash)
  );
  CREATE TABLE completions (
    cache_key TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_hash TEXT NOT NULL,
    completion TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    last_used_ms BIGINT NOT NULL,
    PRIMARY KEY (cache_key, prompt_hash)
  );
  `,
  // 4: the shared job queue (./job-queue.ts): a queued job carries its input and is claimed under
  // a lease any process may take over once it expires; attempts counts the claims.
  `
  ALTER TABLE jobs ADD COLUMN queued BOOLEAN NOT NULL DEFAULT false;
  ALTER TABLE jobs ADD COLUMN input_json TEXT;
  ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
  ALTER TABLE jobs ADD COLUMN lease_expires_at_ms BIGINT;
  ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX jobs_queued ON jobs (seq) WHERE queued AND status IN ('pending', 'running');
  `,
  // 5: uploaded originals, which every replica reads and removes (../originals/postgres.ts).
  `
  CREATE TABLE originals (
    location TEXT PRIMARY KEY,
    bytes BYTEA NOT NULL
  );
  `,
  // 6: when each original was stored, so doctor leaves alone one whose row is about to be written.
  // A constant default (0: stored before this was recorded) adds the column without rewriting the table.
  `
  ALTER TABLE originals ADD COLUMN stored_at_ms BIGINT NOT NULL DEFAULT 0;
  `,
  // 7: the chat-model calls a queued job's run of work has made (http_max_llm_calls): counted on
  // the top-level job's row, so its processing units and its later attempts share one budget.
  `
  ALTER TABLE jobs ADD COLUMN llm_calls INTEGER NOT NULL DEFAULT 0;
  `,
  // 8: what reading a document warned of (pages of glyph codes left out), kept so that whoever
  // uses the document later (a collection, a benchmark, documents show) is told too; NULL: none.
  `
  ALTER TABLE documents ADD COLUMN warnings_json TEXT;
  `,
];

/** The advisory lock migrations run under (any fixed number; "chunkeval" in ASCII). */
const MIGRATION_LOCK = 0x63_68_75_6e_6b_65_76;

/**
 * Applies the migrations not yet recorded, each in its own transaction with its record, under a
 * session advisory lock: replicas starting together wait for each other, and the ones that get
 * the lock after the first find nothing left to apply. Returns how many it applied.
 */
export async function migrate(pool: pg.Pool, migrations: readonly string[] = MIGRATIONS): Promise<number> {
  const client = await pool.connect();
  // A connection whose unlock failed may still hold the lock: the pool closes it, which releases it.
  let broken: Error | undefined;
  try {
    // Replicas starting together wait for the first one's migrations, and a migration may take
    // long on a large table: the pool's lock and statement timeouts are for requests, not this.
    await client.query("SET lock_timeout = 0; SET statement_timeout = 0");
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      return await applyPending(client, migrations);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch((error: Error) => (broken = error));
    }
  } finally {
    // Back to the pool's timeouts for the next user of this connection.
    await client.query("RESET lock_timeout; RESET statement_timeout").catch((error: Error) => (broken ??= error));
    client.release(broken);
  }
}

async function applyPending(client: pg.PoolClient, migrations: readonly string[]): Promise<number> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const { rows } = await client.query<{ v: number }>("SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations");
  let applied = 0;
  for (let version = rows[0]!.v + 1; version <= migrations.length; version += 1) {
    await client.query("BEGIN");
    try {
      await client.query(migrations[version - 1]!);
      await client.query("INSERT INTO schema_migrations (version) VALUES ($1)", [version]);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
    applied += 1;
  }
  return applied;
}
