import { randomUUID, timingSafeEqual } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { HttpDeps, RouteDeps } from "./route-deps.js";
import { errorBody, installErrorHandler } from "./error-handler.js";
import { installValidators } from "./validators.js";
import { errorBodySchema, responsesOf, v1ErrorBodySchema } from "./openapi-responses.js";
import { openapiBodyOf } from "./upload-body.js";
import { MAX_FIELD_BYTES, MAX_FIELDS } from "./multipart.js";
import { benchmarkRoutes } from "./routes/benchmarks.js";
import { collectionRoutes } from "./routes/collections.js";
import { documentRoutes } from "./routes/documents.js";
import { jobRoutes } from "./routes/jobs.js";
import { uiRoutes } from "./routes/ui.js";
import { queryRoutes } from "./routes/queries.js";
import { questionRoutes } from "./routes/questions.js";
import { healthRoutes, REQUEST_ID_HEADER, v1ErrorBody, v1Plugin } from "./v1/plugin.js";
import { isLoopback } from "./loopback.js";
import { Admission } from "./admission.js";
import { CHUNKEVAL_VERSION } from "../../api/about.js";
import { bearerToken } from "../../api/v1.js";

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Builds the HTTP app over a chunkeval instance and a job runner; it never listens by itself. */
export async function buildApp(httpDeps: HttpDeps, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const config = httpDeps.chunkeval.config;
  const deps: RouteDeps = {
    ...httpDeps,
    admission: new Admission({
      maxInflightUploadBytes: config.load.maxInflightUploadMb * 1024 * 1024,
      maxUploadBytes: config.maxUploadMb * 1024 * 1024,
      maxSyncJobs: config.load.maxSyncJobs,
      maxQueuedJobs: config.load.maxQueuedJobs,
    }),
  };
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.maxJsonBodyKb * 1024,
    // A client's correlation id is kept (if it looks sane); otherwise one is generated.
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
    // Router errors (an undecodable path, an over-long path parameter) reach no route's error
    // handler; they still get the surface's error body, and the path is never echoed whole.
    frameworkErrors: (error, request, reply) => {
      const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
      const view = {
        status: tooLong ? 414 : 422,
        type: "ValidationError",
        code: "validation_error",
        message: tooLong ? "a path parameter is too long" : "the path is not validly percent-encoded",
      };
      void (reply as FastifyReply)
        .status(view.status)
        .send(request.url.startsWith("/v1/") ? v1ErrorBody(request, view.code, view.message) : errorBody(view.message, view.type));
    },
  });
  installValidators(app);
  app.addHook("onRequest", async (request, reply) => {
    if (!/^[A-Za-z0-9._:-]{1,128}$/.test(request.id)) request.id = randomUUID();
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  installErrorHandler(app, (_request, view) => errorBody(view.message, view.type), config);
  await app.register((await import("@fastify/multipart")).default, {
    limits: { fileSize: config.maxUploadMb * 1024 * 1024, files: 1, fieldSize: MAX_FIELD_BYTES, fields: MAX_FIELDS },
    throwFileSizeLimit: true,
  });
  for (const schema of [errorBodySchema, v1ErrorBodySchema]) app.addSchema(schema);
  await app.register((await import("@fastify/swagger")).default, {
    openapi: {
      info: {
        title: "chunkeval evaluation API",
        version: CHUNKEVAL_VERSION,
        description:
          "Upload documents, chunk them with built-in strategies or variants, query the chunks, benchmark strategies against a " +
          "questions file and read the experiments and their reports; long requests run as background jobs (`?background=true`). " +
          "`questions_file` is a path inside the server's questions directory (`questions_dir`, shown by `GET /readyz` and when " +
          "`chunkeval serve` starts), or send the questions inline. Errors are `{detail, type}`; the /v1 routes are the ingestion " +
          "and search API for tenants, with their own error envelope.",
      },
      ...(config.apiKey ? { components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } }, security: [{ bearer: [] }] } : {}),
    },
    // Shared schemas listed under components by their $id (ErrorBody), not as def-N.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === "string" ? json.$id : `def-${i}`) },
    // Each operation's success and error responses, and the upload routes' multipart bodies, in the
    // document only (openapi-responses.ts, upload-body.ts).
    transform: ({ schema, url, route }) => {
      const body = openapiBodyOf(route);
      return { schema: { ...schema, ...(body ? { body } : {}), response: responsesOf(route, Boolean(config.apiKey)) ?? schema?.response }, url };
    },
  });
  await app.register((await import("@fastify/swagger-ui")).default, { routePrefix: "/docs" });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  /** Whether a request carries the evaluation API key (always false when none is configured). */
  const carriesApiKey = (request: FastifyRequest) => {
    if (!config.apiKey) return false;
    const given = bearerToken(request.headers.authorization ?? "") ?? (request.headers["x-api-key"] as string | undefined) ?? "";
    return sameSecret(given, config.apiKey);
  };
  if (config.apiKey) {
    // Optional, off by default (the spec configures no authentication): every route but the docs.
    app.addHook("onRequest", async (request, reply) => {
      const path = request.url.split("?")[0]!;
      if (
        path.startsWith("/docs") ||
        // The UI's page and files: it asks for the key and sends it with every API call.
        path === "/ui" ||
        path.startsWith("/ui/") ||
        path === "/openapi.json" ||
        path.startsWith("/v1/") ||
        path === "/healthz" ||
        path === "/readyz"
      )
        return;
      if (!carriesApiKey(request)) return reply.status(401).send(errorBody("missing or wrong API key (Authorization: Bearer <key>)", "AuthenticationError"));
    });
  }

  documentRoutes(app, deps);
  queryRoutes(app, deps);
  benchmarkRoutes(app, deps);
  collectionRoutes(app, deps);
  questionRoutes(app, deps);
  jobRoutes(app, deps);
  uiRoutes(app);
  // /readyz's details (folders, store errors) go to whoever may use the evaluation API: the key's
  // holder, or with no key configured a local process (a server exposed without a key hides them).
  healthRoutes(app, { chunkeval: deps.chunkeval, mayReadDetails: (request) => (config.apiKey ? carriesApiKey(request) : isLoopback(request.ip)) });
  await app.register(v1Plugin, { prefix: "/v1", chunkeval: deps.chunkeval, jobs: deps.jobs, admission: deps.admission });
  return app;
}
