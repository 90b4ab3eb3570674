/**
 * The one error catalogue. Every error the core throws is a ChunkevalError subclass whose
 * `name` is the spec's `type` (SPEC §7), and which carries the HTTP status and the CLI exit
 * code it maps to. The core throws; only the transports decide how to show an error.
 */

/** CLI exit codes (README "Exit codes"). */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  notFound: 3,
} as const;

export abstract class ChunkevalError extends Error {
  abstract readonly status: number;
  abstract readonly exitCode: number;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** 400: a document or a chunking request that cannot be processed. */
export class ChunkingError extends ChunkevalError {
  readonly status = 400;
  readonly exitCode = ExitCode.usage;
}

/** 400: a question that cannot be answered (e.g. the strategy was never processed). */
export class QueryError extends ChunkevalError {
  readonly status = 400;
  readonly exitCode = ExitCode.failed;
}

/** 400: a benchmark that cannot run. */
export class BenchmarkError extends ChunkevalError {
  readonly status = 400;
  readonly exitCode = ExitCode.failed;
}

/**
 * 404: a resource that does not exist. SPEC §7 gives "404 QueryError" for anything not found,
 * so the wire type stays `QueryError` while the code can still tell the two apart.
 */
export class NotFoundError extends ChunkevalError {
  readonly status = 404;
  readonly exitCode = ExitCode.notFound;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "QueryError";
  }
}

/** 422: invalid input (request body, flag, configuration value, questions file). */
export class ValidationError extends ChunkevalError {
  readonly status = 422;
  readonly exitCode = ExitCode.usage;
}

/** 401: the API key is missing or wrong. */
export class AuthenticationError extends ChunkevalError {
  readonly status = 401;
  readonly exitCode = ExitCode.usage;
}

/** 413: an upload larger than the configured limit. */
export class PayloadTooLargeError extends ChunkevalError {
  readonly status = 413;
  readonly exitCode = ExitCode.usage;
}

/** 502: a provider (embedding model, chat model) failed after its retries. */
export class ProviderError extends ChunkevalError {
  readonly status = 502;
  readonly exitCode = ExitCode.failed;
}

/** Work stopped because its AbortSignal fired. */
export class CancelledError extends ChunkevalError {
  readonly status = 499;
  readonly exitCode = ExitCode.failed;
}

/** Every concrete error class, so tests can check each one is mapped and documented. */
export const errorClasses = [
  ChunkingError,
  QueryError,
  BenchmarkError,
  NotFoundError,
  ValidationError,
  AuthenticationError,
  PayloadTooLargeError,
  ProviderError,
  CancelledError,
] as const;

/** Throws CancelledError when the signal has fired; long loops call it between steps. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError("cancelled: " + String(signal.reason ?? "aborted"));
}

/** The message of anything thrown, for error rows and `strategies_failed` entries. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
