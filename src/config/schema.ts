import { join, resolve } from "node:path";
import { DEFAULTS } from "./defaults.js";
import { RETRIEVAL_SETTINGS } from "../domain/default-search-mode.js";
import { vectorStoreSchemes } from "../stores/vectors/registry.js";
import { defaultMetadataStoreUri, metadataBackendFor, metadataStoreSchemes } from "../stores/metadata/registry.js";

/** The configuration in effect: code-side names; docs/configuration.md documents file keys and variables. */
export interface ChunkevalConfig {
  dataDir: string;
  /** The embedding and completion cache's folder (default `<dataDir>/cache`): a CI job can keep it between runs. */
  cacheDir: string;
  /** Where tenants, documents, chunks, jobs and the rest of the metadata live: a SQLite file (default `<dataDir>/chunkeval.sqlite`) or another store's URI. */
  metadataStoreUri: string;
  /** Where LanceDB keeps vectors: a local path (default `<dataDir>/lancedb`) or an s3://, gs://, az:// URI. */
  vectorStoreUri: string;
  /** Old LanceDB table versions are deleted once older than this many seconds. */
  vectorVersionRetentionSeconds: number;
  embedder: string;
  /** How every strategy is searched unless a variant says otherwise: auto (by embedder: retrieval/default-mode.ts), dense, keyword or hybrid. */
  retrieval: string;
  /** The dense list's share of hybrid search's fusion: auto (by embedder: domain/default-search-mode.ts) or 0-1. */
  hybridDenseWeight: string;
  embedderWorkers: number;
  embedBatchSize: number;
  generator: string;
  judge: string;
  topK: number;
  questionsDir: string;
  maxUploadMb: number;
  /** Limits of opening an uploaded file (parsers/limits.ts). */
  parsing: {
    maxUnpackedMb: number;
    maxCompressionRatio: number;
    maxZipEntries: number;
    maxPdfPages: number;
    minTextCharacters: number;
    maxHtmlElements: number;
    maxHtmlDepth: number;
    timeoutSeconds: number;
    memoryMb: number;
  };
  maxJsonBodyKb: number;
  /** What callers of the evaluation API may ask the server to spend (docs/http-api.md "Request limits"). */
  http: { maxVariants: number; maxGenerationCalls: number; maxLlmCalls: number; generators: string };
  /** The server's load budgets (docs/http-api.md "Load budgets"): past them a request is answered 503 with Retry-After. */
  load: { maxInflightUploadMb: number; maxSyncJobs: number; maxQueuedJobs: number };
  /** Searchable chunks one document may yield with one strategy in evaluation processing. */
  maxChunksPerDocument: number;
  /** Connections of a process's one PostgreSQL pool (store, originals and job queue together). */
  postgresPoolSize: number;
  maxBackgroundJobs: number;
  ingestion: { strategy: string; maxConcurrency: number; timeoutSeconds: number; maxChunks: number; embedConcurrency: number };
  /** When set, every evaluation route requires it (environment only). */
  apiKey?: string;
  openai: { baseUrl?: string; apiKey?: string; maxRetries: number; timeoutSeconds: number };
  huggingFace: { modelDir?: string; allowRemote: boolean };
  /** Weights of the composite score's terms (file only); defaults in domain/metrics.ts. */
  weights: Record<string, number> | null;
  /** Deadline of chunking one document with one strategy, the worker's own time (strategies/offload.ts). */
  chunkTimeoutSeconds: number;
  /** Chunk a PDF's running headers, footers and page numbers with its text (strategies/page-furniture.ts); default false. */
  keepPageFurniture: boolean;
  /** Per-strategy option overrides, e.g. { recursive: { chunk_size: 300 } }. */
  strategyOptions: Record<string, Record<string, number>>;
  /** Absolute paths of strategy modules (docs/strategies.md "Your own chunker") registered beside the built-in strategies. */
  strategyModules: readonly string[];
}

/** `paths`: a list of file paths (a file's list, or one string split at commas and the platform's path delimiter). */
type Kind = "string" | "int" | "number" | "bool" | "paths";

/** Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer timeout would fire at once. */
const MAX_TIMER_SECONDS = 2_000_000;
type Value = string | number | boolean | readonly string[];

/** What a setting's default or resolution may depend on. */
export interface SettingContext {
  cwd: string;
  /** The data directory in effect (already resolved). */
  dataDir: string;
  errors: string[];
}

/**
 * One declaration per setting drives everything about it: the file key (also the flag name),
 * the environment variables, the type, the default, the lower bound, where it lands in
 * ChunkevalConfig, how `chunkeval config` shows it, and its row in docs/configuration.md (a test
 * checks that table lists exactly these). Adding a setting is one row here and its field in
 * ChunkevalConfig. Secrets have no file key: they come only from the environment.
 */
export interface SettingDeclaration {
  key: string;
  env: string;
  /** A second variable read when `env` is unset (e.g. OPENAI_API_KEY). */
  alsoEnv?: string;
  kind: Kind;
  secret?: boolean;
  description: string;
  /** Dotted path in ChunkevalConfig, e.g. "parsing.maxUnpackedMb". */
  path: string;
  /** The value when no flag, variable or file sets it; undefined leaves the setting unset. */
  default?: Value | ((ctx: SettingContext) => Value);
  /** Values below are raised to it. */
  min?: number;
  /** Values above are lowered to it. */
  max?: number;
  /** Turns the parsed value into the configured one (resolving paths, checking ranges into ctx.errors). */
  resolve?: (value: Value, ctx: SettingContext) => Value;
}

const setting = (d: SettingDeclaration) => d;

export const SETTINGS: SettingDeclaration[] = [
  setting({
    key: "data_dir",
    env: "CHUNKEVAL_DATA_DIR",
    kind: "string",
    path: "dataDir",
    default: DEFAULTS.dataDir,
    resolve: (v, c) => resolve(c.cwd, String(v)),
    description: "where SQLite, LanceDB and uploaded files live",
  }),
  setting({
    key: "cache_dir",
    env: "CHUNKEVAL_CACHE_DIR",
    kind: "string",
    path: "cacheDir",
    default: (c) => join(c.dataDir, DEFAULTS.cacheFolder),
    resolve: (v, c) => resolve(c.cwd, String(v)),
    description: "the embedding and completion cache (one SQLite file): keep it between CI runs; safe to share between machines",
  }),
  setting({
    key: "metadata_store_uri",
    env: "CHUNKEVAL_METADATA_STORE_URI",
    kind: "string",
    path: "metadataStoreUri",
    default: (c) => defaultMetadataStoreUri(c.dataDir),
    resolve: (v, c) => resolveMetadataStoreUri(String(v), c),
    description: "the metadata store: a SQLite file path (or sqlite://path), or a postgres:// (postgresql://) URI",
  }),
  setting({
    key: "vector_store_uri",
    env: "CHUNKEVAL_VECTOR_STORE_URI",
    kind: "string",
    path: "vectorStoreUri",
    default: (c) => join(c.dataDir, DEFAULTS.vectorStoreFolder),
    resolve: (v, c) => resolveVectorStoreUri(String(v), c),
    description: "LanceDB location: a local path or s3://, gs://, az:// (credentials from the environment)",
  }),
  setting({
    key: "vector_version_retention_seconds",
    env: "CHUNKEVAL_VECTOR_VERSION_RETENTION_SECONDS",
    kind: "int",
    path: "vectorVersionRetentionSeconds",
    default: DEFAULTS.vectorVersionRetentionSeconds,
    description: "LanceDB table versions older than this are deleted by the store's upkeep",
  }),
  setting({
    key: "embedder",
    env: "CHUNKEVAL_EMBEDDER",
    kind: "string",
    path: "embedder",
    default: DEFAULTS.embedder,
    description: "use | hash | hf:<model-id> | openai:<model>",
  }),
  setting({
    key: "retrieval",
    env: "CHUNKEVAL_RETRIEVAL",
    kind: "string",
    path: "retrieval",
    default: "auto",
    description:
      "how every strategy is searched unless a variant says otherwise: auto (keyword for use and hash, hybrid for other embedders) | dense | keyword | hybrid",
    resolve: (v, c) => {
      if (!(RETRIEVAL_SETTINGS as readonly string[]).includes(String(v)))
        c.errors.push(`retrieval must be one of ${RETRIEVAL_SETTINGS.join(", ")}, not "${v}"`);
      return v;
    },
  }),
  setting({
    key: "hybrid_dense_weight",
    env: "CHUNKEVAL_HYBRID_DENSE_WEIGHT",
    kind: "string",
    path: "hybridDenseWeight",
    default: "auto",
    description: "the dense list's share (0-1) of hybrid search's rank fusion: auto (0.05 for use and hash, 0.5 for other embedders) or a number",
    resolve: (v, c) => {
      const weight = Number(v);
      if (String(v) !== "auto" && !(String(v).trim() !== "" && weight >= 0 && weight <= 1))
        c.errors.push(`hybrid_dense_weight must be auto or a number from 0 to 1, not "${v}"`);
      return v;
    },
  }),
  setting({
    key: "embedder_workers",
    env: "CHUNKEVAL_EMBEDDER_WORKERS",
    kind: "int",
    path: "embedderWorkers",
    default: DEFAULTS.embedderWorkers,
    description: "worker threads of the use embedder (0 = in process)",
  }),
  setting({
    key: "embed_batch_size",
    env: "CHUNKEVAL_EMBED_BATCH_SIZE",
    kind: "int",
    path: "embedBatchSize",
    default: DEFAULTS.embedBatchSize,
    min: 1,
    description: "texts per embedding request",
  }),
  setting({
    key: "generator",
    env: "CHUNKEVAL_GENERATOR",
    kind: "string",
    path: "generator",
    default: DEFAULTS.generator,
    description: "extractive | openai:<model>",
  }),
  setting({ key: "judge", env: "CHUNKEVAL_JUDGE", kind: "string", path: "judge", default: DEFAULTS.judge, description: "embedding | openai:<model>" }),
  setting({
    key: "top_k",
    env: "CHUNKEVAL_TOP_K",
    kind: "int",
    path: "topK",
    default: DEFAULTS.topK,
    description: "chunks retrieved per question",
    resolve: (v, c) => {
      if (Number(v) < 1 || Number(v) > DEFAULTS.maxTopK) c.errors.push(`top_k must be between 1 and ${DEFAULTS.maxTopK}`);
      return v;
    },
  }),
  setting({
    key: "questions_dir",
    env: "CHUNKEVAL_QUESTIONS_DIR",
    kind: "string",
    path: "questionsDir",
    default: DEFAULTS.questionsDir,
    resolve: (v, c) => resolve(c.cwd, String(v)),
    description: "the only folder POST /benchmarks may read questions_file from",
  }),
  setting({
    key: "max_upload_mb",
    env: "CHUNKEVAL_MAX_UPLOAD_MB",
    kind: "int",
    path: "maxUploadMb",
    default: DEFAULTS.maxUploadMb,
    min: 1,
    description: "largest file accepted by upload, bench, POST /documents and POST /v1/files",
  }),
  setting({
    key: "max_unpacked_mb",
    env: "CHUNKEVAL_MAX_UNPACKED_MB",
    kind: "int",
    path: "parsing.maxUnpackedMb",
    default: DEFAULTS.maxUnpackedMb,
    min: 1,
    description: "largest unpacked size of a .docx package or of a PDF's compressed streams, checked before parsing",
  }),
  setting({
    key: "max_compression_ratio",
    env: "CHUNKEVAL_MAX_COMPRESSION_RATIO",
    kind: "int",
    path: "parsing.maxCompressionRatio",
    default: DEFAULTS.maxCompressionRatio,
    min: 1,
    description: "largest unpacked/packed ratio of one .docx entry over 1 MB, checked before parsing",
  }),
  setting({
    key: "max_zip_entries",
    env: "CHUNKEVAL_MAX_ZIP_ENTRIES",
    kind: "int",
    path: "parsing.maxZipEntries",
    default: DEFAULTS.maxZipEntries,
    min: 1,
    description: "most entries of a .docx package, checked before parsing",
  }),
  setting({
    key: "max_pdf_pages",
    env: "CHUNKEVAL_MAX_PDF_PAGES",
    kind: "int",
    path: "parsing.maxPdfPages",
    default: DEFAULTS.maxPdfPages,
    min: 1,
    description: "most pages of a PDF, read from its page tree before any page is",
  }),
  setting({
    key: "min_text_characters",
    env: "CHUNKEVAL_MIN_TEXT_CHARACTERS",
    kind: "int",
    path: "parsing.minTextCharacters",
    default: DEFAULTS.minTextCharacters,
    min: 1,
    description: "fewest visible (non-space) characters a text must hold (a Chinese or Japanese one counts for three); fewer is refused as almost empty",
  }),
  setting({
    key: "max_html_elements",
    env: "CHUNKEVAL_MAX_HTML_ELEMENTS",
    kind: "int",
    path: "parsing.maxHtmlElements",
    default: DEFAULTS.maxHtmlElements,
    min: 1,
    description: "most elements of an HTML file (table cells of a Markdown file), counted while it is read",
  }),
  setting({
    key: "max_html_depth",
    env: "CHUNKEVAL_MAX_HTML_DEPTH",
    kind: "int",
    path: "parsing.maxHtmlDepth",
    default: DEFAULTS.maxHtmlDepth,
    min: 1,
    description: "deepest element nesting of an HTML file (quotes and lists of a Markdown file), counted while it is read",
  }),
  setting({
    key: "parse_timeout_seconds",
    env: "CHUNKEVAL_PARSE_TIMEOUT_SECONDS",
    kind: "number",
    path: "parsing.timeoutSeconds",
    default: DEFAULTS.parseTimeoutSeconds,
    max: MAX_TIMER_SECONDS,
    description: "deadline of parsing one file (in a worker thread)",
  }),
  setting({
    key: "parse_memory_mb",
    env: "CHUNKEVAL_PARSE_MEMORY_MB",
    kind: "int",
    path: "parsing.memoryMb",
    default: DEFAULTS.parseMemoryMb,
    min: 64,
    description: "heap of the parsing worker; a file that needs more is refused",
  }),
  setting({
    key: "chunk_timeout_seconds",
    env: "CHUNKEVAL_CHUNK_TIMEOUT_SECONDS",
    kind: "number",
    path: "chunkTimeoutSeconds",
    default: DEFAULTS.chunkTimeoutSeconds,
    max: MAX_TIMER_SECONDS,
    description: "deadline of chunking one document with one strategy, in a worker thread (time spent embedding for it excluded)",
  }),
  setting({
    key: "keep_page_furniture",
    env: "CHUNKEVAL_KEEP_PAGE_FURNITURE",
    kind: "bool",
    path: "keepPageFurniture",
    default: DEFAULTS.keepPageFurniture,
    description: "chunk a PDF's running headers, footers and page numbers with its text (they are left out of chunks by default)",
  }),
  setting({
    key: "max_json_body_kb",
    env: "CHUNKEVAL_MAX_JSON_BODY_KB",
    kind: "int",
    path: "maxJsonBodyKb",
    default: DEFAULTS.maxJsonBodyKb,
    min: 1,
    description: "largest JSON request body of the HTTP API",
  }),
  setting({
    key: "http_max_variants",
    env: "CHUNKEVAL_HTTP_MAX_VARIANTS",
    kind: "int",
    path: "http.maxVariants",
    default: DEFAULTS.httpMaxVariants,
    min: 1,
    description: "the most variants one benchmark over HTTP may compare, whatever its max_variants says (422 beyond)",
  }),
  setting({
    key: "http_max_generation_calls",
    env: "CHUNKEVAL_HTTP_MAX_GENERATION_CALLS",
    kind: "int",
    path: "http.maxGenerationCalls",
    default: DEFAULTS.httpMaxGenerationCalls,
    min: 1,
    description: "the most chat calls one POST /questions/generate may make (its max_calls above it is 422; without max_calls the budget is capped to it)",
  }),
  setting({
    key: "http_max_llm_calls",
    env: "CHUNKEVAL_HTTP_MAX_LLM_CALLS",
    kind: "int",
    path: "http.maxLlmCalls",
    default: DEFAULTS.httpMaxLlmCalls,
    min: 1,
    description:
      "the most chat-model calls one request over HTTP (a benchmark, processing, a query, a /v1 upload) or background job may make: answers, " +
      "an LLM judge, contextual_retrieval's chunk contexts (a queued job's units and attempts together); cached replies are free; " +
      "the call past it stops the request (413 LlmCallLimitError)",
  }),
  setting({
    key: "http_generators",
    env: "CHUNKEVAL_HTTP_GENERATORS",
    kind: "string",
    path: "http.generators",
    default: "",
    description:
      "generators a POST /questions/generate may name, comma-separated (e.g. openai:gpt-4o-mini,openai:gpt-4o); " +
      "empty: only template and the configured generator",
  }),
  setting({
    key: "max_inflight_upload_mb",
    env: "CHUNKEVAL_MAX_INFLIGHT_UPLOAD_MB",
    kind: "int",
    path: "load.maxInflightUploadMb",
    default: DEFAULTS.maxInflightUploadMb,
    min: 1,
    description: "bytes of uploads a server receives and works on at once (every upload route); past it a new upload is 503 with Retry-After",
  }),
  setting({
    key: "max_sync_jobs",
    env: "CHUNKEVAL_MAX_SYNC_JOBS",
    kind: "int",
    path: "load.maxSyncJobs",
    default: DEFAULTS.maxSyncJobs,
    min: 1,
    description: "synchronous benchmarks, processing runs and question generations a server runs at once; past it 503 with Retry-After",
  }),
  setting({
    key: "max_queued_jobs",
    env: "CHUNKEVAL_MAX_QUEUED_JOBS",
    kind: "int",
    path: "load.maxQueuedJobs",
    default: DEFAULTS.maxQueuedJobs,
    min: 1,
    description: "background jobs waiting to run; a request that would queue one more is 503 with Retry-After",
  }),
  setting({
    key: "max_chunks_per_document",
    env: "CHUNKEVAL_MAX_CHUNKS_PER_DOCUMENT",
    kind: "int",
    path: "maxChunksPerDocument",
    default: DEFAULTS.maxChunksPerDocument,
    min: 1,
    description: "searchable chunks one document may yield with one strategy when processed for evaluation; past it that strategy fails",
  }),
  setting({
    key: "postgres_pool_size",
    env: "CHUNKEVAL_POSTGRES_POOL_SIZE",
    kind: "int",
    path: "postgresPoolSize",
    default: DEFAULTS.postgresPoolSize,
    min: 2,
    description: "connections of each process's one pool to PostgreSQL (metadata, originals and job queue share it; a job queue keeps one for LISTEN)",
  }),
  setting({
    key: "max_background_jobs",
    env: "CHUNKEVAL_MAX_BACKGROUND_JOBS",
    kind: "int",
    path: "maxBackgroundJobs",
    default: DEFAULTS.maxBackgroundJobs,
    min: 1,
    description: "background jobs running at once; the rest wait as pending",
  }),
  setting({
    key: "api_key",
    env: "CHUNKEVAL_API_KEY",
    kind: "string",
    secret: true,
    path: "apiKey",
    description: "when set, required on every evaluation route; environment only",
  }),
  setting({
    key: "strategy_modules",
    env: "CHUNKEVAL_STRATEGY_MODULES",
    kind: "paths",
    path: "strategyModules",
    default: [],
    description:
      "JavaScript modules that each add a chunking strategy (paths relative to the config file, or to the current folder for flags and the variable)",
  }),
  setting({
    key: "ingestion_strategy",
    env: "INGESTION_STRATEGY",
    kind: "string",
    path: "ingestion.strategy",
    default: DEFAULTS.ingestionStrategy,
    description: "chunking strategy of /v1 uploads",
  }),
  setting({
    key: "ingestion_max_concurrency",
    env: "INGESTION_MAX_CONCURRENCY",
    kind: "int",
    path: "ingestion.maxConcurrency",
    default: DEFAULTS.ingestionMaxConcurrency,
    min: 1,
    description: "/v1 ingestions at once; more get 503",
  }),
  setting({
    key: "ingestion_timeout_seconds",
    env: "INGESTION_TIMEOUT_SECONDS",
    kind: "number",
    path: "ingestion.timeoutSeconds",
    default: DEFAULTS.ingestionTimeoutSeconds,
    max: MAX_TIMER_SECONDS,
    description: "/v1 ingestion time window; past it 504",
  }),
  setting({
    key: "ingestion_max_chunks",
    env: "INGESTION_MAX_CHUNKS",
    kind: "int",
    path: "ingestion.maxChunks",
    default: DEFAULTS.ingestionMaxChunks,
    min: 1,
    description: "chunks one /v1 upload may yield; more get 413",
  }),
  setting({
    key: "ingestion_embed_concurrency",
    env: "INGESTION_EMBED_CONCURRENCY",
    kind: "int",
    path: "ingestion.embedConcurrency",
    default: DEFAULTS.ingestionEmbedConcurrency,
    min: 1,
    description: "embedding batches in flight per /v1 ingestion",
  }),
  setting({
    key: "openai_base_url",
    env: "CHUNKEVAL_OPENAI_BASE_URL",
    alsoEnv: "OPENAI_BASE_URL",
    kind: "string",
    path: "openai.baseUrl",
    description: "base URL of the OpenAI-compatible endpoint (also read from OPENAI_BASE_URL)",
  }),
  setting({
    key: "openai_api_key",
    env: "CHUNKEVAL_OPENAI_API_KEY",
    alsoEnv: "OPENAI_API_KEY",
    kind: "string",
    secret: true,
    path: "openai.apiKey",
    description: "API key (also read from OPENAI_API_KEY); environment only",
  }),
  setting({
    key: "openai_max_retries",
    env: "CHUNKEVAL_OPENAI_MAX_RETRIES",
    kind: "int",
    path: "openai.maxRetries",
    default: DEFAULTS.openaiMaxRetries,
    description: "retries of 429/5xx responses, with backoff",
  }),
  setting({
    key: "openai_timeout_seconds",
    env: "CHUNKEVAL_OPENAI_TIMEOUT_SECONDS",
    kind: "int",
    path: "openai.timeoutSeconds",
    default: DEFAULTS.openaiTimeoutSeconds,
    max: MAX_TIMER_SECONDS,
    description: "timeout of one request",
  }),
  setting({
    key: "hf_model_dir",
    env: "CHUNKEVAL_HF_MODEL_DIR",
    kind: "string",
    path: "huggingFace.modelDir",
    description: "local folder of Hugging Face models for hf:<model-id>",
  }),
  setting({
    key: "hf_allow_remote",
    env: "CHUNKEVAL_HF_ALLOW_REMOTE",
    kind: "bool",
    path: "huggingFace.allowRemote",
    default: DEFAULTS.hfAllowRemote,
    description: "let hf:<model-id> download from the hub",
  }),
];

function resolveMetadataStoreUri(raw: string, ctx: SettingContext): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  const schemes = metadataStoreSchemes();
  if (scheme !== undefined && (!schemes.includes(scheme) || raw.length <= scheme.length + 3)) {
    ctx.errors.push(`metadata_store_uri: ${JSON.stringify(raw)} is not a local path or a ${schemes.map((s) => `${s}://…`).join(", ")} URI`);
    return defaultMetadataStoreUri(ctx.dataDir);
  }
  // A file of a local backend is found from the working folder, like every other path setting.
  const local = metadataBackendFor(raw).localPath;
  return local ? resolve(ctx.cwd, local(raw)) : raw;
}

function resolveVectorStoreUri(raw: string, ctx: SettingContext): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  const schemes = vectorStoreSchemes();
  // `s3:/bucket` or `s3:bucket` is a mistyped URI, not a local folder named `s3:` to write vectors into.
  const mistyped = scheme === undefined && schemes.includes(/^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase() ?? "");
  if (scheme === undefined && !mistyped) return resolve(ctx.cwd, raw);
  if (scheme === "file") return resolve(ctx.cwd, raw.slice("file://".length));
  // Object stores some vector backend reaches by URI; anything else with a scheme is refused, a plain path is local.
  if (mistyped || !schemes.includes(scheme!) || raw.length <= scheme!.length + 3) {
    ctx.errors.push(`vector_store_uri: ${JSON.stringify(raw)} is not a local path or an ${schemes.map((s) => `${s}://bucket/path`).join(", ")} URI`);
    return join(ctx.dataDir, DEFAULTS.vectorStoreFolder);
  }
  return raw;
}
