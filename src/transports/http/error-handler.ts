import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import { ChunkevalError } from "../../errors.js";

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

/**
 * Decides once how any error is shown: catalogue errors keep their status, type and code;
 * schema validation failures become 422 (Fastify's default is 400); an oversize body is 413;
 * other client errors (malformed JSON, wrong content type) are 422; anything else is a 500
 * that never echoes internals.
 */
export function classifyError(error: FastifyError): HttpErrorView {
  if (error instanceof ChunkevalError) return { status: error.status, type: error.name, code: error.code, message: error.message };
  if (error.validation) {
    return { status: 422, type: "ValidationError", code: "validation_error", message: `invalid ${error.validationContext ?? "request"}: ${error.message}` };
  }
  if (error.statusCode === 413 || error.code === "FST_REQ_FILE_TOO_LARGE") {
    return { status: 413, type: "PayloadTooLargeError", code: "payload_too_large", message: "the upload is larger than the configured limit (max_upload_mb)" };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: 422, type: "ValidationError", code: "validation_error", message: error.message };
  }
  return INTERNAL;
}

/** Installs the error and not-found handlers of one surface (the app, or an encapsulated plugin). */
export function installErrorHandler(app: FastifyInstance, envelope: ErrorEnvelope): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const view = classifyError(error);
    if (view === INTERNAL) request.log.error({ err: error }, "unhandled error");
    return reply.status(view.status).send(envelope(request, view));
  });
  app.setNotFoundHandler((request, reply) => {
    const view = { status: 404, type: "QueryError", code: "not_found", message: `no route ${request.method} ${request.url}` };
    return reply.status(404).send(envelope(request, view));
  });
}
