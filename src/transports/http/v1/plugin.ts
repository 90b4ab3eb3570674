import { existsSync } from "node:fs";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { JobQueue } from "../../../domain/ports/job-queue.js";
import { ValidationError } from "../../../errors.js";
import { installErrorHandler } from "../error-handler.js";
import { readMultipartUpload } from "../multipart.js";
import { documentedBody, multipartUpload } from "../upload-body.js";
import { idParams, pageProperties } from "../schemas.js";
import { boundedString, REQUEST_LIMITS as LIMIT } from "../request-limits.js";
import { toWire } from "../../serialize.js";
import { withRequestCallBudget } from "../../request-call-budget.js";
import { watchClient, type Admission } from "../admission.js";
import { ConcurrencyLimitError } from "../../../errors.js";
import { SUPPORTED_FORMATS_TEXT } from "../../../api/about.js";
import type { Chunkeval, Principal, Scope } from "../../../api/index.js";
import { requireScope } from "../../../api/v1.js";

/** Header that carries the correlation id of every /v1 request and response. */
export const REQUEST_ID_HEADER = "x-request-id";

declare module "fastify" {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** The scopes a /v1 route accepts (any one of them); checked before the body is read. */
    scopes?: Scope[];
  }
}

/** The /v1 error envelope: `{error: {code, message, request_id}}`. */
export function v1ErrorBody(request: FastifyRequest, code: string, message: string) {
  return { error: { code, message, request_id: request.id } };
}

const domainBody = {
  type: "object",
  additionalProperties: false,
  required: ["domain", "display_name"],
  properties: { domain: { type: "string", minLength: 1, maxLength: 100 }, display_name: { type: "string", minLength: 1, maxLength: 200 } },
} as const;
const patchBody = {
  type: "object",
  additionalProperties: false,
  required: ["display_name"],
  properties: { display_name: { type: "string", minLength: 1, maxLength: 200 } },
} as const;
const domainParams = { type: "object", properties: { domain: boundedString(LIMIT.name) } } as const;
/** enable/disable take no body; one that names anything (tenant_id, version, ...) is 422. */
const emptyBody = { type: ["object", "null"], additionalProperties: false, properties: {} } as const;
const domainsQuery = { type: "object", additionalProperties: false, properties: pageProperties } as const;
const pointsQuery = {
  type: "object",
  additionalProperties: false,
  properties: { domain: boundedString(LIMIT.name), file_id: boundedString(LIMIT.name), ...pageProperties },
} as const;
const searchBody = {
  type: "object",
  additionalProperties: false,
  required: ["query"],
  properties: { query: boundedString(LIMIT.question), domain: boundedString(LIMIT.name), top_k: { type: "integer", minimum: 1, maximum: 100, default: 5 } },
} as const;

/** Multipart fields POST /v1/files accepts; anything else (tenant_id, version, ...) is 422. */
const FILE_FIELDS = ["file", "domain"] as const;

/**
 * The multi-tenant ingestion surface as its own plugin: API-key authentication with scopes,
 * tenant-scoped domains, file ingestion and points. Every response carries the request id.
 */
export async function v1Plugin(
  app: FastifyInstance,
  { chunkeval, jobs, admission }: { chunkeval: Chunkeval; jobs?: JobQueue; admission: Admission },
): Promise<void> {
  const tenants = chunkeval.tenants;

  // Authentication and the scope check run before the body is read or validated, so a key
  // without the scope gets 403 whatever it sent.
  app.addHook("onRequest", async (request) => {
    request.principal = await tenants.authenticate(request.headers.authorization);
    const scopes = request.routeOptions.config?.scopes;
    if (scopes) requireScope(request.principal, ...scopes);
  });

  installErrorHandler(app, (request, view) => v1ErrorBody(request, view.code, view.message), chunkeval.config);

  const who = (request: FastifyRequest) => request.principal!;
  const domainView = (d: { domain: string; displayName: string; status: string; createdAt: string; updatedAt: string }) =>
    toWire({ domain: d.domain, displayName: d.displayName, status: d.status, createdAt: d.createdAt, updatedAt: d.updatedAt });

  app.get(
    "/domains",
    { config: { scopes: ["domains:read"] }, schema: { tags: ["v1"], summary: "List the tenant's domains (domains:read)", querystring: domainsQuery } },
    async (request) => {
      const { offset, limit } = request.query as { offset: number; limit: number };
      const page = await tenants.listDomains(who(request).tenantId, { offset, limit });
      return { items: page.items.map(domainView), total: page.total, offset, limit };
    },
  );

  app.post(
    "/domains",
    { config: { scopes: ["domains:write"] }, schema: { tags: ["v1"], summary: "Create a domain (domains:write)", body: domainBody } },
    async (request, reply) => {
      const body = request.body as { domain: string; display_name: string };
      return reply.status(201).send(domainView(await tenants.createDomain(who(request).tenantId, body.domain, body.display_name)));
    },
  );

  app.patch(
    "/domains/:domain",
    {
      config: { scopes: ["domains:write"] },
      schema: { tags: ["v1"], summary: "Change a domain's display_name, only (domains:write)", params: domainParams, body: patchBody },
    },
    async (request) => {
      const { domain } = request.params as { domain: string };
      return domainView(await tenants.updateDomain(who(request).tenantId, domain, { displayName: (request.body as { display_name: string }).display_name }));
    },
  );

  for (const [action, status] of [
    ["disable", "disabled"],
    ["enable", "active"],
  ] as const) {
    app.post(
      `/domains/:domain/${action}`,
      {
        config: { scopes: ["domains:write"] },
        schema: { tags: ["v1"], summary: `${action} a domain (domains:write); no body`, params: domainParams, body: emptyBody },
      },
      async (request) => {
        return domainView(await tenants.updateDomain(who(request).tenantId, (request.params as { domain: string }).domain, { status }));
      },
    );
  }

  app.post(
    "/files",
    {
      onRequest: async (request, reply) => {
        if (chunkeval.ingestionAtCapacity()) {
          throw new ConcurrencyLimitError(
            `INGESTION_MAX_CONCURRENCY (${chunkeval.config.ingestion.maxConcurrency}) ingestions are running in this server; retry later`,
          );
        }
        admission.admitUpload(request, reply);
      },
      config: {
        scopes: ["files:write"],
        ...documentedBody({
          "multipart/form-data": multipartUpload({
            domain: { type: "string", maxLength: LIMIT.name, description: "the tenant's domain the file is ingested into" },
          }),
        }),
      },
      schema: {
        tags: ["v1"],
        summary: `Upload a source file (${SUPPORTED_FORMATS_TEXT}) into a domain (files:write): multipart \`file\` and \`domain\``,
        consumes: ["multipart/form-data"],
      },
    },
    async (request, reply) => {
      // Refused before the body is read (onRequest), so a refused upload costs neither its bytes nor a failed job row.
      const { file, fields } = await readMultipartUpload(request, FILE_FIELDS, chunkeval.config.maxUploadMb);
      const domain = fields.domain;
      if (!file) throw new ValidationError("the multipart body has no `file` part");
      if (!domain) throw new ValidationError("the multipart body has no `domain` field");
      // On a shared store (PostgreSQL) the ingestion is a job of this server's queue, run by any replica or worker.
      // A client that disconnects before its answer stops the ingestion (its job fails, cancelled).
      const clientGone = watchClient(reply);
      // An ingestion strategy that asks a chat model (contextual_retrieval) spends within http_max_llm_calls.
      const result = await withRequestCallBudget(chunkeval.config, () =>
        chunkeval.ingestFile(who(request).tenantId, domain, file.filename, file.bytes, jobs, clientGone.signal),
      ).finally(() => clientGone.stopWatching());
      return reply.status(201).send(toWire(result));
    },
  );

  app.get(
    "/ingestion-jobs/:job_id",
    {
      config: { scopes: ["files:write", "domains:read"] },
      schema: { tags: ["v1"], summary: "An ingestion job of this tenant (files:write or domains:read)", params: idParams("job_id") },
    },
    async (request) => {
      return toWire(await chunkeval.ingestionJob(who(request).tenantId, (request.params as { job_id: string }).job_id));
    },
  );

  app.get(
    "/points",
    {
      config: { scopes: ["points:read", "domains:read"] },
      schema: { tags: ["v1"], summary: "List live points, filtered by domain and file (points:read or domains:read)", querystring: pointsQuery },
    },
    async (request) => {
      const q = request.query as { domain?: string; file_id?: string; offset: number; limit: number };
      const page = await chunkeval.listPoints(who(request).tenantId, { domain: q.domain, sourceFileId: q.file_id }, q);
      return toWire({ ...page, offset: q.offset, limit: q.limit });
    },
  );

  app.get(
    "/points/:point_id",
    {
      config: { scopes: ["points:read", "domains:read"] },
      schema: { tags: ["v1"], summary: "One point (points:read or domains:read)", params: idParams("point_id") },
    },
    async (request) => {
      return toWire(await chunkeval.getPoint(who(request).tenantId, (request.params as { point_id: string }).point_id));
    },
  );

  app.post(
    "/search",
    {
      config: { scopes: ["points:read", "domains:read"] },
      schema: {
        tags: ["v1"],
        summary: "Hybrid search (dense + BM25, reciprocal rank fusion) over live points (points:read or domains:read)",
        body: searchBody,
      },
    },
    async (request) => {
      const body = request.body as { query: string; domain?: string; top_k: number };
      const items = await chunkeval.searchPoints(who(request).tenantId, { text: body.query, domain: body.domain, topK: body.top_k });
      return toWire({ items });
    },
  );
}

/** Liveness and readiness, outside /v1 and without a key. */
export function healthRoutes(
  app: FastifyInstance,
  { chunkeval, mayReadDetails }: { chunkeval: Chunkeval; mayReadDetails: (request: FastifyRequest) => boolean },
): void {
  app.get("/healthz", { schema: { tags: ["health"], summary: "Liveness" } }, async () => ({ status: "ok" }));
  app.get(
    "/readyz",
    {
      schema: {
        tags: ["health"],
        summary: "Ready when the vector store answers and the chunks collection exists",
        description:
          "`details.questions_dir` is the folder POST /benchmarks reads `questions_file` from; `details.questions_dir_exists` says whether it is there. " +
          "`details` and a not-ready `reason` are given only with the evaluation API key (with none configured: only to a client on this machine); " +
          "anyone else learns ready or not.",
      },
    },
    async (request, reply) => {
      const state = await chunkeval.v1Readiness();
      if (!mayReadDetails(request)) {
        return state.ready ? { status: "ready" } : reply.status(503).send({ status: "not_ready", request_id: request.id });
      }
      // Where POST /benchmarks reads questions_file from, which a client otherwise cannot see.
      const questionsDir = chunkeval.config.questionsDir;
      const details = { questions_dir: questionsDir, questions_dir_exists: existsSync(questionsDir) };
      return state.ready
        ? { status: "ready", details }
        : reply.status(503).send({ status: "not_ready", reason: state.reason, request_id: request.id, details });
    },
  );
}
