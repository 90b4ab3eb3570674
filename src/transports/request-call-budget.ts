import type { ChunkevalConfig } from "../config/schema.js";
import { withCallBudget } from "../generators/call-budget.js";

/**
 * Runs a benchmark or processing request of the HTTP API (or its background job) within the
 * server's http_max_llm_calls chat-model calls: the server's provider key pays for them.
 */
export function withRequestCallBudget<T>(config: Pick<ChunkevalConfig, "http">, work: () => Promise<T>): Promise<T> {
  return withCallBudget(config.http.maxLlmCalls, "http_max_llm_calls", work);
}
