/** The configuration in effect: code-side names; README documents file keys and variables. */
export interface ChunkevalConfig {
  dataDir: string;
  /** Where LanceDB keeps vectors: a local path (default `<dataDir>/lancedb`) or an s3://, gs://, az:// URI. */
  vectorStoreUri: string;
  /** Old LanceDB table versions are deleted once older than this many seconds. */
  vectorVersionRetentionSeconds: number;
  embedder: string;
  embedderWorkers: number;
  embedBatchSize: number;
  generator: string;
  judge: string;
  topK: number;
  questionsDir: string;
  maxUploadMb: number;
  /** Limits of opening an uploaded file (parsers/limits.ts). */
  parsing: { maxUnpackedMb: number; maxCompressionRatio: number; maxZipEntries: number; timeoutSeconds: number; memoryMb: number };
  maxJsonBodyKb: number;
  maxBackgroundJobs: number;
  ingestion: { strategy: string; maxConcurrency: number; timeoutSeconds: number; maxChunks: number; embedConcurrency: number };
  /** When set, every evaluation route requires it (environment only). */
  apiKey?: string;
  openai: { baseUrl?: string; apiKey?: string; maxRetries: number; timeoutSeconds: number };
  huggingFace: { modelDir?: string; allowRemote: boolean };
  /** Weights of the composite score's terms (file only); defaults in domain/metrics.ts. */
  weights: Record<string, number> | null;
  /** Per-strategy option overrides, e.g. { recursive: { chunk_size: 300 } }. */
  strategyOptions: Record<string, Record<string, number>>;
}

type Kind = "string" | "int" | "number" | "bool";

/**
 * One row per setting: its file key, environment variable and type. Flags are applied by
 * the CLI by file key. Secrets have no file key: they come only from the environment.
 */
export const SETTINGS: Array<{ key: string; env: string; alsoEnv?: string; kind: Kind; secret?: boolean; fileKey: boolean; description: string }> = [
  { key: "data_dir", env: "CHUNKEVAL_DATA_DIR", kind: "string", fileKey: true, description: "where SQLite, LanceDB and uploaded files live" },
  { key: "vector_store_uri", env: "CHUNKEVAL_VECTOR_STORE_URI", kind: "string", fileKey: true, description: "LanceDB location: a local path or s3://, gs://, az:// (credentials from the environment)" },
  { key: "vector_version_retention_seconds", env: "CHUNKEVAL_VECTOR_VERSION_RETENTION_SECONDS", kind: "int", fileKey: true, description: "LanceDB table versions older than this are deleted by the store's upkeep" },
  { key: "embedder", env: "CHUNKEVAL_EMBEDDER", kind: "string", fileKey: true, description: "use | hash | hf:<model-id> | openai:<model>" },
  { key: "embedder_workers", env: "CHUNKEVAL_EMBEDDER_WORKERS", kind: "int", fileKey: true, description: "worker threads of the use embedder (0 = in process)" },
  { key: "embed_batch_size", env: "CHUNKEVAL_EMBED_BATCH_SIZE", kind: "int", fileKey: true, description: "texts per embedding request" },
  { key: "generator", env: "CHUNKEVAL_GENERATOR", kind: "string", fileKey: true, description: "extractive | openai:<model>" },
  { key: "judge", env: "CHUNKEVAL_JUDGE", kind: "string", fileKey: true, description: "embedding | openai:<model>" },
  { key: "top_k", env: "CHUNKEVAL_TOP_K", kind: "int", fileKey: true, description: "chunks retrieved per question" },
  { key: "questions_dir", env: "CHUNKEVAL_QUESTIONS_DIR", kind: "string", fileKey: true, description: "the only folder POST /benchmarks may read questions_file from" },
  { key: "max_upload_mb", env: "CHUNKEVAL_MAX_UPLOAD_MB", kind: "int", fileKey: true, description: "largest file accepted by upload, bench, POST /documents and POST /v1/files" },
  { key: "max_unpacked_mb", env: "CHUNKEVAL_MAX_UNPACKED_MB", kind: "int", fileKey: true, description: "largest unpacked size of a .docx package, checked before parsing" },
  { key: "max_compression_ratio", env: "CHUNKEVAL_MAX_COMPRESSION_RATIO", kind: "int", fileKey: true, description: "largest unpacked/packed ratio of one .docx entry over 1 MB, checked before parsing" },
  { key: "max_zip_entries", env: "CHUNKEVAL_MAX_ZIP_ENTRIES", kind: "int", fileKey: true, description: "most entries of a .docx package, checked before parsing" },
  { key: "parse_timeout_seconds", env: "CHUNKEVAL_PARSE_TIMEOUT_SECONDS", kind: "number", fileKey: true, description: "deadline of parsing one file (in a worker thread)" },
  { key: "parse_memory_mb", env: "CHUNKEVAL_PARSE_MEMORY_MB", kind: "int", fileKey: true, description: "heap of the parsing worker; a file that needs more is refused" },
  { key: "max_json_body_kb", env: "CHUNKEVAL_MAX_JSON_BODY_KB", kind: "int", fileKey: true, description: "largest JSON request body of the HTTP API" },
  { key: "max_background_jobs", env: "CHUNKEVAL_MAX_BACKGROUND_JOBS", kind: "int", fileKey: true, description: "background jobs running at once; the rest wait as pending" },
  { key: "api_key", env: "CHUNKEVAL_API_KEY", kind: "string", secret: true, fileKey: false, description: "when set, required on every evaluation route; environment only" },
  { key: "ingestion_strategy", env: "INGESTION_STRATEGY", kind: "string", fileKey: true, description: "chunking strategy of /v1 uploads" },
  { key: "ingestion_max_concurrency", env: "INGESTION_MAX_CONCURRENCY", kind: "int", fileKey: true, description: "/v1 ingestions at once; more get 503" },
  { key: "ingestion_timeout_seconds", env: "INGESTION_TIMEOUT_SECONDS", kind: "number", fileKey: true, description: "/v1 ingestion time window; past it 504" },
  { key: "ingestion_max_chunks", env: "INGESTION_MAX_CHUNKS", kind: "int", fileKey: true, description: "chunks one /v1 upload may yield; more get 413" },
  { key: "ingestion_embed_concurrency", env: "INGESTION_EMBED_CONCURRENCY", kind: "int", fileKey: true, description: "embedding batches in flight per /v1 ingestion" },
  { key: "openai_base_url", env: "CHUNKEVAL_OPENAI_BASE_URL", alsoEnv: "OPENAI_BASE_URL", kind: "string", fileKey: true, description: "base URL of the OpenAI-compatible endpoint (also read from OPENAI_BASE_URL)" },
  { key: "openai_api_key", env: "CHUNKEVAL_OPENAI_API_KEY", alsoEnv: "OPENAI_API_KEY", kind: "string", secret: true, fileKey: false, description: "API key (also read from OPENAI_API_KEY); environment only" },
  { key: "openai_max_retries", env: "CHUNKEVAL_OPENAI_MAX_RETRIES", kind: "int", fileKey: true, description: "retries of 429/5xx responses, with backoff" },
  { key: "openai_timeout_seconds", env: "CHUNKEVAL_OPENAI_TIMEOUT_SECONDS", kind: "int", fileKey: true, description: "timeout of one request" },
  { key: "hf_model_dir", env: "CHUNKEVAL_HF_MODEL_DIR", kind: "string", fileKey: true, description: "local folder of Hugging Face models for hf:<model-id>" },
  { key: "hf_allow_remote", env: "CHUNKEVAL_HF_ALLOW_REMOTE", kind: "bool", fileKey: true, description: "let hf:<model-id> download from the hub" },
];
