import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { DEFAULTS } from "./defaults.js";
import { DEFAULT_WEIGHTS } from "../domain/metrics.js";
import { SETTINGS, type ChunkevalConfig } from "./schema.js";

export interface LoadConfigOptions {
  /** Flag values by file key (e.g. { data_dir: "/tmp/x" }); undefined entries are ignored. */
  flags?: Record<string, string | number | boolean | undefined>;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** An explicit config file; otherwise chunkeval.config.{json,yaml,yml} in cwd, if present. */
  configFile?: string;
}

export interface LoadedConfig {
  config: Readonly<ChunkevalConfig>;
  warnings: string[];
  errors: string[];
  /** Where each setting came from: flag, env, file or default. */
  sources: Record<string, string>;
  /** For settings that came from the environment: the variable that was read. */
  variables: Record<string, string>;
}

const CONFIG_FILES = ["chunkeval.config.json", "chunkeval.config.yaml", "chunkeval.config.yml"];

function readConfigFile(path: string, errors: string[]): Record<string, unknown> {
  try {
    const text = readFileSync(path, "utf8");
    const parsed: unknown = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
    if (parsed === null || parsed === undefined) return {};
    if (typeof parsed !== "object" || Array.isArray(parsed)) {
      errors.push(`${path}: the configuration must be an object`);
      return {};
    }
    return parsed as Record<string, unknown>;
  } catch (error) {
    errors.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    return {};
  }
}

function coerce(kind: string, value: unknown): { ok: true; value: string | number | boolean } | { ok: false } {
  if (kind === "int") {
    const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
    return Number.isInteger(n) && n >= 0 ? { ok: true, value: n } : { ok: false };
  }
  if (kind === "number") {
    const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
    return Number.isFinite(n) && n > 0 ? { ok: true, value: n } : { ok: false };
  }
  if (kind === "bool") {
    if (typeof value === "boolean") return { ok: true, value };
    if (value === "true" || value === "1") return { ok: true, value: true };
    if (value === "false" || value === "0") return { ok: true, value: false };
    return { ok: false };
  }
  return typeof value === "string" && value.length > 0 ? { ok: true, value } : { ok: false };
}

/**
 * Loads the configuration once. Precedence: flags > CHUNKEVAL_* environment > config file >
 * defaults. Never prints and never throws for bad values: they come back in `errors`.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const warnings: string[] = [];
  const errors: string[] = [];
  const sources: Record<string, string> = {};
  const variables: Record<string, string> = {};

  const filePath = options.configFile ? resolve(cwd, options.configFile) : CONFIG_FILES.map((f) => join(cwd, f)).find(existsSync);
  if (options.configFile && !existsSync(filePath!)) errors.push(`config file not found: ${filePath}`);
  const file = filePath && existsSync(filePath) ? readConfigFile(filePath, errors) : {};
  const knownFileKeys = new Set([...SETTINGS.filter((s) => s.fileKey).map((s) => s.key), "strategies", "weights"]);
  for (const key of Object.keys(file)) {
    if (SETTINGS.some((s) => s.key === key && s.secret)) errors.push(`${filePath}: "${key}" is a secret; set ${SETTINGS.find((s) => s.key === key)!.env} instead`);
    else if (!knownFileKeys.has(key)) warnings.push(`${filePath}: unknown key "${key}" ignored`);
  }

  const values: Record<string, string | number | boolean | undefined> = {};
  for (const setting of SETTINGS) {
    // [source, value, the environment variable it came from]
    const candidates: Array<[string, unknown, string?]> = [
      ["flag", options.flags?.[setting.key]],
      ["env", env[setting.env], setting.env],
      ...(setting.alsoEnv ? [["env", env[setting.alsoEnv], setting.alsoEnv] as [string, unknown, string]] : []),
      ["file", setting.fileKey ? file[setting.key] : undefined],
    ];
    for (const [source, raw, variable] of candidates) {
      if (raw === undefined || raw === "") continue;
      const parsed = coerce(setting.kind, raw);
      if (!parsed.ok) {
        errors.push(`${setting.key} (${source}): ${JSON.stringify(raw)} is not a valid ${setting.kind === "int" ? "whole number >= 0" : setting.kind === "number" ? "number > 0" : setting.kind}`);
        break;
      }
      values[setting.key] = parsed.value;
      sources[setting.key] = source;
      if (variable) variables[setting.key] = variable;
      break;
    }
    sources[setting.key] ??= "default";
  }

  const strategyOptions: Record<string, Record<string, number>> = {};
  if (file.strategies !== undefined) {
    if (typeof file.strategies !== "object" || file.strategies === null) errors.push(`${filePath}: "strategies" must map strategy names to options`);
    else for (const [name, opts] of Object.entries(file.strategies)) strategyOptions[name] = opts as Record<string, number>;
  }

  let weights: Record<string, number> | null = null;
  if (file.weights !== undefined) {
    const w = file.weights as Record<string, unknown>;
    const valid = typeof w === "object" && w !== null && Object.entries(w).every(([k, v]) => k in DEFAULT_WEIGHTS && typeof v === "number" && v >= 0);
    if (!valid) errors.push(`${filePath}: "weights" must map ${Object.keys(DEFAULT_WEIGHTS).join(", ")} to numbers >= 0`);
    else weights = { ...DEFAULT_WEIGHTS, ...(w as Record<string, number>) };
  }

  const dataDir = resolve(cwd, (values.data_dir as string | undefined) ?? DEFAULTS.dataDir);
  const vectorStoreUri = resolveVectorStoreUri(values.vector_store_uri as string | undefined, dataDir, cwd, errors);

  const topK = (values.top_k as number | undefined) ?? DEFAULTS.topK;
  if (topK < 1 || topK > DEFAULTS.maxTopK) errors.push(`top_k must be between 1 and ${DEFAULTS.maxTopK}`);

  const config: ChunkevalConfig = {
    dataDir,
    vectorStoreUri,
    vectorVersionRetentionSeconds: (values.vector_version_retention_seconds as number | undefined) ?? DEFAULTS.vectorVersionRetentionSeconds,
    embedder: (values.embedder as string | undefined) ?? DEFAULTS.embedder,
    embedderWorkers: (values.embedder_workers as number | undefined) ?? DEFAULTS.embedderWorkers,
    embedBatchSize: Math.max(1, (values.embed_batch_size as number | undefined) ?? DEFAULTS.embedBatchSize),
    generator: (values.generator as string | undefined) ?? DEFAULTS.generator,
    judge: (values.judge as string | undefined) ?? DEFAULTS.judge,
    topK,
    questionsDir: resolve(cwd, (values.questions_dir as string | undefined) ?? DEFAULTS.questionsDir),
    maxUploadMb: Math.max(1, (values.max_upload_mb as number | undefined) ?? DEFAULTS.maxUploadMb),
    parsing: {
      maxUnpackedMb: Math.max(1, (values.max_unpacked_mb as number | undefined) ?? DEFAULTS.maxUnpackedMb),
      maxCompressionRatio: Math.max(1, (values.max_compression_ratio as number | undefined) ?? DEFAULTS.maxCompressionRatio),
      maxZipEntries: Math.max(1, (values.max_zip_entries as number | undefined) ?? DEFAULTS.maxZipEntries),
      timeoutSeconds: (values.parse_timeout_seconds as number | undefined) ?? DEFAULTS.parseTimeoutSeconds,
      memoryMb: Math.max(64, (values.parse_memory_mb as number | undefined) ?? DEFAULTS.parseMemoryMb),
    },
    maxJsonBodyKb: Math.max(1, (values.max_json_body_kb as number | undefined) ?? DEFAULTS.maxJsonBodyKb),
    maxBackgroundJobs: Math.max(1, (values.max_background_jobs as number | undefined) ?? DEFAULTS.maxBackgroundJobs),
    apiKey: values.api_key as string | undefined,
    ingestion: {
      strategy: (values.ingestion_strategy as string | undefined) ?? DEFAULTS.ingestionStrategy,
      maxConcurrency: Math.max(1, (values.ingestion_max_concurrency as number | undefined) ?? DEFAULTS.ingestionMaxConcurrency),
      timeoutSeconds: (values.ingestion_timeout_seconds as number | undefined) ?? DEFAULTS.ingestionTimeoutSeconds,
      maxChunks: Math.max(1, (values.ingestion_max_chunks as number | undefined) ?? DEFAULTS.ingestionMaxChunks),
      embedConcurrency: Math.max(1, (values.ingestion_embed_concurrency as number | undefined) ?? DEFAULTS.ingestionEmbedConcurrency),
    },
    openai: {
      baseUrl: values.openai_base_url as string | undefined,
      apiKey: values.openai_api_key as string | undefined,
      maxRetries: (values.openai_max_retries as number | undefined) ?? DEFAULTS.openaiMaxRetries,
      timeoutSeconds: (values.openai_timeout_seconds as number | undefined) ?? DEFAULTS.openaiTimeoutSeconds,
    },
    huggingFace: {
      modelDir: values.hf_model_dir as string | undefined,
      allowRemote: (values.hf_allow_remote as boolean | undefined) ?? DEFAULTS.hfAllowRemote,
    },
    strategyOptions,
    weights,
  };
  return { config: deepFreeze(config), warnings, errors, sources, variables };
}

/** Object stores LanceDB reaches by URI; anything else with a scheme is refused, a plain path is local. */
const OBJECT_STORE_SCHEMES = ["s3", "gs", "az"];

function resolveVectorStoreUri(raw: string | undefined, dataDir: string, cwd: string, errors: string[]): string {
  if (raw === undefined) return join(dataDir, DEFAULTS.vectorStoreFolder);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) return resolve(cwd, raw);
  if (scheme === "file") return resolve(cwd, raw.slice("file://".length));
  if (!OBJECT_STORE_SCHEMES.includes(scheme) || raw.length <= scheme.length + 3) {
    errors.push(`vector_store_uri: ${JSON.stringify(raw)} is not a local path or an ${OBJECT_STORE_SCHEMES.map((s) => `${s}://bucket/path`).join(", ")} URI`);
    return join(dataDir, DEFAULTS.vectorStoreFolder);
  }
  return raw;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** How a set secret is shown: fully masked, not even its last characters. */
const SECRET_MASK = "********";

/**
 * The configuration as `chunkeval config` prints it: file keys, secrets masked, and for a
 * setting read from the environment the variable that was actually read.
 */
export function describeConfig(loaded: LoadedConfig): Array<{ key: string; value: string; source: string; env: string }> {
  const c = loaded.config;
  const byKey: Record<string, unknown> = {
    data_dir: c.dataDir,
    vector_store_uri: c.vectorStoreUri,
    vector_version_retention_seconds: c.vectorVersionRetentionSeconds,
    embedder: c.embedder,
    embedder_workers: c.embedderWorkers,
    embed_batch_size: c.embedBatchSize,
    generator: c.generator,
    judge: c.judge,
    top_k: c.topK,
    questions_dir: c.questionsDir,
    max_upload_mb: c.maxUploadMb,
    max_unpacked_mb: c.parsing.maxUnpackedMb,
    max_compression_ratio: c.parsing.maxCompressionRatio,
    max_zip_entries: c.parsing.maxZipEntries,
    parse_timeout_seconds: c.parsing.timeoutSeconds,
    parse_memory_mb: c.parsing.memoryMb,
    max_json_body_kb: c.maxJsonBodyKb,
    max_background_jobs: c.maxBackgroundJobs,
    api_key: c.apiKey ? SECRET_MASK : "(not set)",
    ingestion_strategy: c.ingestion.strategy,
    ingestion_max_concurrency: c.ingestion.maxConcurrency,
    ingestion_timeout_seconds: c.ingestion.timeoutSeconds,
    ingestion_max_chunks: c.ingestion.maxChunks,
    ingestion_embed_concurrency: c.ingestion.embedConcurrency,
    openai_base_url: c.openai.baseUrl ?? "(SDK default)",
    openai_api_key: c.openai.apiKey ? SECRET_MASK : "(not set)",
    openai_max_retries: c.openai.maxRetries,
    openai_timeout_seconds: c.openai.timeoutSeconds,
    hf_model_dir: c.huggingFace.modelDir ?? "(not set)",
    hf_allow_remote: c.huggingFace.allowRemote,
  };
  return SETTINGS.map((s) => ({ key: s.key, value: String(byKey[s.key]), source: loaded.sources[s.key] ?? "default", env: loaded.variables[s.key] ?? s.env }));
}
