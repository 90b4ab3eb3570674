/** chunkeval's public library API: the same core the CLI and HTTP server call. */
export { createChunkeval, type Chunkeval, type CompositionExtensions } from "./chunkeval.js";
// The declared API, one interface per surface, and the inputs its members take.
export type * from "./api/index.js";
export { loadConfig, describeConfig, type LoadedConfig, type LoadConfigOptions } from "./config/load.js";
export type { ChunkevalConfig } from "./config/schema.js";
export * from "./errors.js";
export type * from "./domain/types.js";
// A metric of your own, added with createChunkeval(config, { metrics: { metrics: [yours] } }).
export type { Metric, AtKMetric, PerQuestionRule, StrategyMeasuring } from "./domain/metric-registry/metric.js";
export type { MetricPlugins, MetricRegistry } from "./domain/metric-registry/registry.js";
export type { StrategyModule, StrategyModuleChunk, StrategyModuleInput, StrategyModuleParameter } from "./strategies/strategy-module.js";
/** Loads the token-count tables now instead of on the first count (a long-lived process calls it before it serves). */
export { loadTokenizer } from "./text/tokens.js";
