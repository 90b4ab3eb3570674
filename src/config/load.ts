import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { defaultWeights } from "../domain/scoring.js";
import { BUILT_IN_METRICS } from "../domain/metric-registry/registry.js";
import { SETTINGS, type ChunkevalConfig, type SettingContext } from "./schema.js";

export interface LoadConfigOptions {
  /** Flag values by file key (e.g. { data_dir: "/tmp/x" }); undefined entries (and empty lists) are ignored. */
  flags?: Record<string, string | number | boolean | readonly string[] | undefined>;
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

function coerce(kind: string, value: unknown): { ok: true; value: string | number | boolean | string[] } | { ok: false } {
  if (kind === "paths") {
    const list = typeof value === "string" ? value.split(new RegExp(`[,${delimiter === ";" ? ";" : ":"}]`)) : value;
    if (!Array.isArray(list) || !list.every((p) => typeof p === "string")) return { ok: false };
    const paths = list.map((p: string) => p.trim()).filter((p) => p !== "");
    return paths.length === list.length || typeof value === "string" ? { ok: true, value: paths } : { ok: false };
  }
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
  const knownFileKeys = new Set([...SETTINGS.filter((s) => !s.secret).map((s) => s.key), "strategies", "weights"]);
  for (const key of Object.keys(file)) {
    if (SETTINGS.some((s) => s.key === key && s.secret))
      errors.push(`${filePath}: "${key}" is a secret; set ${SETTINGS.find((s) => s.key === key)!.env} instead`);
    else if (!knownFileKeys.has(key)) warnings.push(`${filePath}: unknown key "${key}" ignored`);
  }

  const values: Record<string, string | number | boolean | readonly string[] | undefined> = {};
  for (const setting of SETTINGS) {
    // [source, value, the environment variable it came from]
    const candidates: Array<[string, unknown, string?]> = [
      ["flag", options.flags?.[setting.key]],
      ["env", env[setting.env], setting.env],
      ...(setting.alsoEnv ? [["env", env[setting.alsoEnv], setting.alsoEnv] as [string, unknown, string]] : []),
      ["file", setting.secret ? undefined : file[setting.key]],
    ];
    for (const [source, raw, variable] of candidates) {
      if (raw === undefined || raw === "" || (Array.isArray(raw) && raw.length === 0 && source === "flag")) continue;
      const parsed = coerce(setting.kind, raw);
      if (!parsed.ok) {
        const expected = { int: "whole number >= 0", number: "number > 0", paths: "list of paths" }[setting.kind as string] ?? setting.kind;
        errors.push(`${setting.key} (${source}): ${JSON.stringify(raw)} is not a valid ${expected}`);
        break;
      }
      // Paths in a config file are relative to the file, so a project's config works from any folder.
      values[setting.key] = Array.isArray(parsed.value) ? parsed.value.map((p) => resolve(source === "file" ? dirname(filePath!) : cwd, p)) : parsed.value;
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
    // The configuration file is read before anything is composed: it weighs the built-in metrics.
    const defaults = defaultWeights(BUILT_IN_METRICS);
    const valid = typeof w === "object" && w !== null && Object.entries(w).every(([k, v]) => k in defaults && typeof v === "number" && v >= 0);
    if (!valid) errors.push(`${filePath}: "weights" must map ${Object.keys(defaults).join(", ")} to numbers >= 0`);
    else weights = { ...defaults, ...(w as Record<string, number>) };
  }

  // In declaration order: data_dir is declared first because other defaults (vector_store_uri) live under it.
  const context: SettingContext = { cwd, dataDir: "", errors };
  const config = { strategyOptions, weights } as Record<string, unknown>;
  for (const setting of SETTINGS) {
    let value = values[setting.key] ?? (typeof setting.default === "function" ? setting.default(context) : setting.default);
    if (value === undefined) continue;
    if (setting.min !== undefined && typeof value === "number") value = Math.max(setting.min, value);
    if (setting.max !== undefined && typeof value === "number") value = Math.min(setting.max, value);
    if (setting.resolve) value = setting.resolve(value, context);
    if (setting.key === "data_dir") context.dataDir = String(value);
    setPath(config, setting.path, value);
  }
  for (const group of ["parsing", "ingestion", "openai", "huggingFace"]) config[group] ??= {};
  return { config: deepFreeze(config as unknown as ChunkevalConfig), warnings, errors, sources, variables };
}

/** Sets a dotted path ("parsing.maxUnpackedMb") in a nested object, creating the groups on the way. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let at = target;
  for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
  at[parts[parts.length - 1]!] = value;
}

function getPath(source: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((at, part) => (at && typeof at === "object" ? (at as Record<string, unknown>)[part] : undefined), source);
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
  return SETTINGS.map((s) => {
    const value = getPath(loaded.config, s.path);
    const shown = value === undefined ? "(not set)" : s.secret ? SECRET_MASK : Array.isArray(value) ? value.join(", ") || "(none)" : String(value);
    return { key: s.key, value: shown, source: loaded.sources[s.key] ?? "default", env: loaded.variables[s.key] ?? s.env };
  });
}
