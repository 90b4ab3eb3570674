import type { ChunkevalConfig } from "../config/schema.js";
import type { SharedCallCount } from "../domain/ports/job-queue.js";
import { withCallBudget } from "../api/benchmarks.js";

/**
 * Runs a request of the HTTP API that may call a chat model (a benchmark, processing, a query, a
 * /v1 upload), or a background job, within the server's http_max_llm_calls chat-model calls: the
 * server's provider key pays for them. A queued job's calls are counted on the shared queue
 * (`shared`), for all its processing units and attempts together.
 */
export function withRequestCallBudget<T>(config: Pick<ChunkevalConfig, "http">, work: () => Promise<T>, shared?: SharedCallCount): Promise<T> {
  return withCallBudget(config.http.maxLlmCalls, "http_max_llm_calls", work, shared);
}
