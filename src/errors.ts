/**
 * The one error catalogue. Every error the core throws is a ChunkevalError subclass whose
 * `name` is the spec's `type` (SPEC §7), and which carries the HTTP status and the CLI exit
 * code it maps to. The core throws; only the transports decide how to show an error.
 */

/** CLI exit codes (docs/cli.md "Exit codes"). */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  notFound: 3,
  /** A gate (`--fail-under`, `--fail-over`, `--fail-on-regression`, `--max-drop`) failed; the run itself succeeded and was stored. */
  gateFailed: 4,
  /** Stopped by Ctrl-C (SIGINT): 128 + the signal's number, as a shell reports it. */
  interrupted: 130,
} as const;

export abstract class ChunkevalError extends Error {
  abstract readonly status: number;
  abstract readonly exitCode: number;
  /** The machine-readable code of the /v1 error envelope. */
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** 400: a document or a chunking request that cannot be processed. */
export class ChunkingError extends ChunkevalError {
  readonly code = "unprocessable_document";
  readonly status = 400;
  readonly exitCode = ExitCode.usage;
}

/** 400: a question that cannot be answered (e.g. the strategy was never processed). */
export class QueryError extends ChunkevalError {
  readonly code = "query_failed";
  readonly status = 400;
  readonly exitCode = ExitCode.failed;
}

/** 400: a benchmark that cannot run. */
export class BenchmarkError extends ChunkevalError {
  readonly code = "benchmark_failed";
  readonly status = 400;
  readonly exitCode = ExitCode.failed;
}

/**
 * 404: a resource that does not exist. SPEC §7 gives "404 QueryError" for anything not found,
 * so the wire type stays `QueryError` while the code can still tell the two apart.
 */
export class NotFoundError extends ChunkevalError {
  readonly code = "not_found";
  readonly status = 404;
  readonly exitCode = ExitCode.notFound;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "QueryError";
  }
}

/** 422: invalid input (request body, flag, configuration value, questions file). */
export class ValidationError extends ChunkevalError {
  readonly code = "validation_error";
  readonly status = 422;
  readonly exitCode = ExitCode.usage;
}

/** 401: the API key is missing or wrong. */
export class AuthenticationError extends ChunkevalError {
  readonly code = "unauthorized";
  readonly status = 401;
  readonly exitCode = ExitCode.usage;
}

/** 413: an upload larger than the configured limit. */
export class PayloadTooLargeError extends ChunkevalError {
  readonly code = "payload_too_large";
  readonly status = 413;
  readonly exitCode = ExitCode.usage;
}

/**
 * 413: a document that would cost more to open than the parsing limits allow: its unpacked
 * size, compression ratio or entry count, or the memory or time its parsing needs. The message
 * names the setting that refused it.
 */
export class DocumentLimitError extends ChunkevalError {
  readonly code = "document_limit_exceeded";
  readonly status = 413;
  readonly exitCode = ExitCode.usage;
}

/** 502: a provider (embedding model, chat model) failed after its retries. */
export class ProviderError extends ChunkevalError {
  readonly code = "provider_failed";
  readonly status = 502;
  readonly exitCode = ExitCode.failed;
}

/** Work stopped because its AbortSignal fired. */
export class CancelledError extends ChunkevalError {
  readonly code = "cancelled";
  readonly status = 499;
  readonly exitCode = ExitCode.failed;
}

/** What work whose HTTP client went away is stopped with (a CancelledError's message): nobody reads its answer. */
export const CLIENT_GONE = "cancelled: the client disconnected before the answer";

/** 403: the API key lacks the scope a /v1 route needs. */
export class ForbiddenError extends ChunkevalError {
  readonly status = 403;
  readonly exitCode = ExitCode.usage;
  readonly code = "insufficient_scope";
}

/** 409: a resource that already exists (a tenant's domain, a tenant name). */
export class ConflictError extends ChunkevalError {
  readonly status = 409;
  readonly exitCode = ExitCode.usage;
  readonly code = "conflict";
}

/** 400: an upload to a domain without an active tenant domain record (SPEC §7). */
export class UnknownDomainError extends ChunkevalError {
  readonly status = 400;
  readonly exitCode = ExitCode.usage;
  readonly code = "unknown_domain";
}

/** 413: the document yields more chunks than the per-request ceiling. */
export class ChunkLimitError extends ChunkevalError {
  readonly status = 413;
  readonly exitCode = ExitCode.usage;
  readonly code = "chunk_limit_exceeded";
}

/** 413: a request that would make more chat-model calls than the server allows one (http_max_llm_calls): it is stopped at the call past it. */
export class LlmCallLimitError extends ChunkevalError {
  readonly status = 413;
  readonly exitCode = ExitCode.usage;
  readonly code = "llm_call_limit_exceeded";
}

/** How long a client refused for load should wait before it tries again (the HTTP Retry-After header). */
export const RETRY_AFTER_SECONDS = 5;

/** 503: more concurrent ingestions than INGESTION_MAX_CONCURRENCY (with Retry-After). */
export class ConcurrencyLimitError extends ChunkevalError {
  readonly status = 503;
  readonly exitCode = ExitCode.failed;
  readonly code = "concurrency_limit";
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
}

/**
 * 503: the server is at one of its load budgets (bytes of uploads in flight, synchronous jobs at
 * once, queued background jobs, busy parsing workers); with Retry-After. Nothing was stored.
 */
export class ServerBusyError extends ChunkevalError {
  readonly status = 503;
  readonly exitCode = ExitCode.failed;
  readonly code = "server_busy";
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
}

/** 504: an ingestion that did not finish within INGESTION_TIMEOUT_SECONDS. */
export class IngestionTimeoutError extends ChunkevalError {
  readonly status = 504;
  readonly exitCode = ExitCode.failed;
  readonly code = "ingestion_timeout";
}

/** 502: writing chunks to the vector store raised, or the store cannot be opened (SPEC §7 `index_failed`). */
export class IndexFailedError extends ChunkevalError {
  readonly status = 502;
  readonly exitCode = ExitCode.failed;
  readonly code = "index_failed";
}

/** Every concrete error class, so tests can check each one is mapped and documented. */
export const errorClasses = [
  LlmCallLimitError,
  ChunkingError,
  QueryError,
  BenchmarkError,
  NotFoundError,
  ValidationError,
  AuthenticationError,
  PayloadTooLargeError,
  DocumentLimitError,
  ProviderError,
  CancelledError,
  ForbiddenError,
  ConflictError,
  UnknownDomainError,
  ChunkLimitError,
  ConcurrencyLimitError,
  ServerBusyError,
  IngestionTimeoutError,
  IndexFailedError,
] as const;

/** Rebuilds a catalogue error that crossed a thread boundary as its class name and message. */
export function restoreError(className: string | undefined, message: string): ChunkevalError | undefined {
  const ErrorClass = errorClasses.find((c) => c.name === className);
  return ErrorClass ? new ErrorClass(message) : undefined;
}

/** Rebuilds a catalogue error from its /v1 code and message (an error recorded in a job row); an unknown code is an IndexFailedError. */
export function errorOfCode(code: string | null, message: string): ChunkevalError {
  for (const ErrorClass of errorClasses) {
    const error = new ErrorClass(message);
    if (error.code === code) return error;
  }
  return new IndexFailedError(message);
}

/** Throws CancelledError when the signal has fired; long loops call it between steps. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError("cancelled: " + String(signal.reason ?? "aborted"));
}

/** The message of anything thrown, for error rows and `strategies_failed` entries. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
