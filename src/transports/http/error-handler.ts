import type { FastifyError, FastifyInstance, FastifyRequest, FastifySchemaValidationError } from "fastify";
import { ChunkevalError } from "../../errors.js";
import type { ChunkevalConfig } from "../../config/schema.js";

/** How an error reaches a client, before a surface wraps it in its own envelope. */
export interface HttpErrorView {
  status: number;
  /** The evaluation API's `type` (SPEC §7). */
  type: string;
  /** The /v1 envelope's `code`. */
  code: string;
  message: string;
}

/** Wraps a view in a surface's error body. */
export type ErrorEnvelope = (request: FastifyRequest, view: HttpErrorView) => unknown;

/** The evaluation API's error body (SPEC §7). */
export function errorBody(detail: string, type: string) {
  return { detail, type };
}

const INTERNAL: HttpErrorView = { status: 500, type: "InternalError", code: "internal_error", message: "internal server error" };

/** The limits an error message may name. */
export type HttpLimits = Pick<ChunkevalConfig, "maxUploadMb" | "maxJsonBodyKb">;

/**
 * Decides once how any error is shown: catalogue errors keep their status, type and code;
 * schema validation failures become 422 (Fastify's default is 400); an oversize body is 413
 * naming the setting that refused it; other client errors (malformed JSON, wrong content
 * type) are 422; anything else is a 500 that never echoes internals.
 */
export function classifyError(error: FastifyError, limits: HttpLimits): HttpErrorView {
  const view = classifyUnbounded(error, limits);
  return view === INTERNAL ? view : { ...view, message: boundMessage(view.message) };
}

function classifyUnbounded(error: FastifyError, limits: HttpLimits): HttpErrorView {
  if (error instanceof ChunkevalError) return { status: error.status, type: error.name, code: error.code, message: error.message };
  if (error.validation) {
    const context = error.validationContext ?? "request";
    return {
      status: 422,
      type: "ValidationError",
      code: "validation_error",
      message: `invalid ${context}: ${error.validation.map((v) => describeSchemaError(v, context)).join("; ")}`,
    };
  }
  if (error.code === "FST_REQ_FILE_TOO_LARGE") {
    return {
      status: 413,
      type: "PayloadTooLargeError",
      code: "payload_too_large",
      message: `the file is larger than max_upload_mb (${limits.maxUploadMb} MB)`,
    };
  }
  if (error.statusCode === 413) {
    return {
      status: 413,
      type: "PayloadTooLargeError",
      code: "payload_too_large",
      message: `the request body is larger than max_json_body_kb (${limits.maxJsonBodyKb} KB)`,
    };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: 422, type: "ValidationError", code: "validation_error", message: error.message };
  }
  return INTERNAL;
}

/**
 * One schema error in the client's terms: the field it is about (by its path in the request,
 * `top_k`, `strategies.0`) and what it must be. Ajv's own words do not say which values a choice
 * allows ("must be equal to one of the allowed values") nor which key was unexpected: these do.
 */
export function describeSchemaError(error: FastifySchemaValidationError, context: string): string {
  const params = error.params as { allowedValues?: unknown[]; allowedValue?: unknown; additionalProperty?: string; missingProperty?: string };
  const path = error.instancePath.replace(/^\//, "").replaceAll("/", ".");
  const field = path || context;
  // A field of an object inside the request is named with that object's path.
  const within = (name: string) => (path ? `${path}.${name}` : name);
  const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  if (error.keyword === "enum" && params.allowedValues) return `${field} must be one of: ${params.allowedValues.map(show).join(", ")}`;
  if (error.keyword === "const") return `${field} must be ${show(params.allowedValue)}`;
  if (error.keyword === "additionalProperties" && params.additionalProperty !== undefined)
    return `unknown field ${JSON.stringify(within(params.additionalProperty))}`;
  if (error.keyword === "required" && params.missingProperty !== undefined) return `${within(params.missingProperty)} is required`;
  return `${field} ${error.message ?? "is invalid"}`;
}

/** Longest run of characters without a space that a message keeps whole (ids, names, paths). */
const MAX_TOKEN = 120;
const MAX_MESSAGE = 1000;

/**
 * Cuts what a client sent out of a message to a readable length: a 200 KB identifier is shown
 * by its start and its length, never echoed whole.
 */
export function boundMessage(message: string): string {
  const cut = message.replace(new RegExp(`\\S{${MAX_TOKEN + 1},}`, "g"), (token) => `${token.slice(0, MAX_TOKEN / 2)}…(${token.length} characters)`);
  return cut.length > MAX_MESSAGE ? `${cut.slice(0, MAX_MESSAGE)}…` : cut;
}

/** Installs the error and not-found handlers of one surface (the app, or an encapsulated plugin). */
export function installErrorHandler(app: FastifyInstance, envelope: ErrorEnvelope, limits: HttpLimits): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const view = classifyError(error, limits);
    if (view === INTERNAL) request.log.error({ err: error }, "unhandled error");
    // A refusal for load says when to come back.
    const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (error instanceof ChunkevalError && typeof retryAfter === "number") reply.header("retry-after", String(retryAfter));
    return reply.status(view.status).send(envelope(request, view));
  });
  app.setNotFoundHandler((request, reply) => {
    const view = { status: 404, type: "QueryError", code: "not_found", message: boundMessage(`no route ${request.method} ${request.url}`) };
    return reply.status(404).send(envelope(request, view));
  });
}
