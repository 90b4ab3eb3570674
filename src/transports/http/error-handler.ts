import type { FastifyError, FastifyInstance } from "fastify";
import { ChunkevalError } from "../../errors.js";

/** The evaluation API's error body (SPEC §7). */
export function errorBody(detail: string, type: string) {
  return { detail, type };
}

/**
 * Maps every error once: catalogue errors keep their status and type; schema validation
 * failures become 422 ValidationError (Fastify's default is 400); an oversize body is 413;
 * anything unexpected is a 500 that never echoes internals (it is logged instead).
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ChunkevalError) return reply.status(error.status).send(errorBody(error.message, error.name));
    if (error.validation) {
      const where = error.validationContext ?? "request";
      return reply.status(422).send(errorBody(`invalid ${where}: ${error.message}`, "ValidationError"));
    }
    if (error.statusCode === 413 || error.code === "FST_REQ_FILE_TOO_LARGE") {
      return reply.status(413).send(errorBody("the upload is larger than the configured limit (max_upload_mb)", "PayloadTooLargeError"));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, wrong content type and the like: the client's request is invalid.
      return reply.status(422).send(errorBody(error.message, "ValidationError"));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send(errorBody("internal server error", "InternalError"));
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send(errorBody(`no route ${request.method} ${request.url}`, "QueryError")));
}
