/** chunkeval's public library API: the same core the CLI and HTTP server call. */
export { createChunkeval, type Chunkeval } from "./chunkeval.js";
export type {
  ChunkevalApi,
  DocumentsApi,
  CollectionsApi,
  ProcessingApi,
  BenchmarksApi,
  QuestionsApi,
  JobsApi,
  IngestionApi,
  OperationsApi,
  Page,
  AskInput,
  BenchInput,
  EstimateInput,
  GenerateQuestionsInput,
  ProcessOptions,
  QuestionsCheckInput,
  ReportOptions,
  RunOptions,
  UploadInput,
  UploadOptions,
} from "./api.js";
export { loadConfig, describeConfig, type LoadedConfig, type LoadConfigOptions } from "./config/load.js";
export type { ChunkevalConfig } from "./config/schema.js";
export * from "./errors.js";
export type * from "./domain/types.js";
export type { StrategyModule, StrategyModuleChunk, StrategyModuleInput, StrategyModuleParameter } from "./strategies/strategy-module.js";
/** Loads the token-count tables now instead of on the first count (a long-lived process calls it before it serves). */
export { loadTokenizer } from "./text/tokens.js";
