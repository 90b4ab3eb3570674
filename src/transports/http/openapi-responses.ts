/**
 * The responses of every operation in the OpenAPI document: its success bodies and the errors it
 * can answer with, each error status described in a caller's words and given the surface's error
 * body. Documentation only: the schemas here are added to the document by @fastify/swagger's
 * `transform` and never reach Fastify's serializer, so a response is sent exactly as before.
 */
import type { RouteOptions } from "fastify";
import {
  AuthenticationError,
  BenchmarkError,
  ChunkingError,
  ChunkLimitError,
  ConcurrencyLimitError,
  ServerBusyError,
  ConflictError,
  DocumentLimitError,
  errorClasses,
  ForbiddenError,
  IndexFailedError,
  IngestionTimeoutError,
  NotFoundError,
  PayloadTooLargeError,
  ProviderError,
  QueryError,
  UnknownDomainError,
  ValidationError,
} from "../../errors.js";
import { EVALUATION_JOB_TYPES, JOB_STATUSES } from "../../api/jobs.js";

type ErrorClass = (typeof errorClasses)[number];

/** One way an operation can fail: its status, the two surfaces' names for it, and when it happens. */
interface DocumentedError {
  status: number;
  type: string;
  code: string;
  when: string;
}

/** When each catalogue error happens, in a caller's words (the "Errors" table of docs/cli.md says the same). */
const WHEN: Record<string, string> = {
  ChunkingError: "the file cannot be used: empty, of no supported format, corrupt, encrypted or without text; or an unknown strategy",
  QueryError: "the question cannot be answered: an unknown strategy, or the document was not processed with it",
  BenchmarkError: "the benchmark cannot run: an unknown strategy or sweep, a questions_file outside the questions directory, bad questions",
  NotFoundError: "no such resource (document, collection, query, experiment, job, domain or point)",
  ValidationError: "invalid input: a missing, unknown or wrongly typed field or query parameter, malformed JSON or multipart, an undecodable path",
  AuthenticationError: "the API key is missing or wrong",
  PayloadTooLargeError: "the upload is larger than max_upload_mb, or the JSON body larger than max_json_body_kb",
  DocumentLimitError: "the document is over a parsing limit (unpacked size, compression ratio, entries, pages, elements, memory or time)",
  ProviderError: "the embedding or chat model failed after its retries, or could not be loaded",
  CancelledError: "the work was cancelled",
  ForbiddenError: "the API key lacks the scope this route needs",
  ConflictError: "the name is taken (a collection, a domain), the collection already holds a document of that name, or the job has already ended (cancel)",
  UnknownDomainError: "the domain has no active record for this tenant",
  ChunkLimitError: "the file yields more chunks than INGESTION_MAX_CHUNKS",
  ConcurrencyLimitError: "more ingestions at once than INGESTION_MAX_CONCURRENCY; try again shortly",
  IngestionTimeoutError: "the ingestion took longer than INGESTION_TIMEOUT_SECONDS",
  IndexFailedError: "the vector store could not be written or opened",
};

const documented = (ErrorClass: ErrorClass): DocumentedError => {
  const e = new ErrorClass("");
  return { status: e.status, type: e.name, code: e.code, when: WHEN[ErrorClass.name]! };
};

/** Not a catalogue error: anything unexpected, answered without its details (error-handler.ts). */
const INTERNAL: DocumentedError = { status: 500, type: "InternalError", code: "internal_error", when: "an unexpected failure; the server logs it" };
/** Refused by the router before any route runs (app.ts's frameworkErrors). */
const PATH_TOO_LONG: DocumentedError = { status: 414, type: "ValidationError", code: "validation_error", when: "a path parameter is too long" };

/** The evaluation API's error body, `{detail, type}`, with every type it can carry. */
export const errorBodySchema = {
  $id: "ErrorBody",
  type: "object",
  required: ["detail", "type"],
  additionalProperties: false,
  properties: {
    detail: { type: "string", description: "what went wrong, in words; a long value sent by the client is shortened" },
    type: { type: "string", enum: [...new Set([...errorClasses.map((c) => documented(c).type), INTERNAL.type])] },
  },
} as const;

/** The /v1 error envelope, `{error: {code, message, request_id}}`. */
export const v1ErrorBodySchema = {
  $id: "V1ErrorBody",
  type: "object",
  required: ["error"],
  additionalProperties: false,
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "request_id"],
      additionalProperties: false,
      properties: {
        code: { type: "string", enum: [...new Set([...errorClasses.map((c) => documented(c).code), INTERNAL.code])] },
        message: { type: "string" },
        request_id: { type: "string", description: "the X-Request-Id of the request" },
      },
    },
  },
} as const;

// Success bodies. They name the fields a client relies on; a body may carry more.
const string = { type: "string" } as const;
const integer = { type: "integer" } as const;
const object = (required: string[], properties: Record<string, unknown>, description?: string) => ({
  type: "object",
  required,
  properties,
  ...(description ? { description } : {}),
});
const page = (item: unknown) =>
  object(["items", "total", "offset", "limit"], { items: { type: "array", items: item }, total: integer, offset: integer, limit: integer });

const documentSchema = object(["id", "filename", "created_at"], {
  id: string,
  filename: string,
  paragraph_count: integer,
  chunk_counts: { type: "object", description: "chunks stored per strategy or variant", additionalProperties: integer },
  created_at: string,
});
const uploadedSchema = object(["id", "filename", "created_at", "already_stored", "warnings"], {
  ...documentSchema.properties,
  already_stored: { type: "boolean", description: "true when these bytes were stored already and this is the document that holds them" },
  warnings: {
    type: "array",
    items: string,
    description: "what parsing left out of the document and why (pages of glyph codes, not text); empty when it kept everything or parsed nothing",
  },
});
const enqueuedSchema = object(["job_id", "job_type", "status", "poll_url"], {
  job_id: string,
  job_type: { type: "string", enum: [...EVALUATION_JOB_TYPES] },
  status: { type: "string", enum: [...JOB_STATUSES] },
  poll_url: { type: "string", description: "GET it to follow the job" },
});
const jobSchema = object(["job_id", "job_type", "status", "poll_url", "created_at"], {
  ...enqueuedSchema.properties,
  about: { description: "the file name and id of the job's document, or its collection; null for jobs from before" },
  progress: { description: "how far the work is" },
  result: { description: "when completed: the body the synchronous request would have answered" },
  error: { type: "string", description: "when failed: why" },
  created_at: string,
  started_at: { description: "null until the job starts" },
  finished_at: { description: "null until the job ends" },
});
const processedSchema = object(["document_id", "strategies_completed", "strategies_failed"], {
  document_id: string,
  strategies_completed: {
    type: "array",
    items: object(["strategy", "status", "chunks_produced"], {
      strategy: string,
      status: string,
      chunks_produced: integer,
      tokens: { type: "object", description: "chunk sizes in tokens: mean, min, max" },
      seconds: { type: "number" },
    }),
  },
  strategies_failed: { type: "array", description: "each strategy that failed, with why" },
});
const querySchema = object(["query_id", "document_id", "strategy", "question", "retrieved_chunks", "created_at"], {
  query_id: string,
  document_id: string,
  strategy: string,
  question: string,
  answer: { description: "the generated answer" },
  retrieved_chunks: {
    type: "array",
    items: object(["chunk_id", "document_id", "score", "text", "start", "end"], {
      chunk_id: string,
      document_id: string,
      score: { type: "number" },
      text: string,
      start: integer,
      end: integer,
    }),
  },
  latency_breakdown: { type: "object" },
  token_usage: { type: "object" },
  created_at: string,
});
const experimentProperties = {
  experiment_id: string,
  document_id: { description: "the document benchmarked, or for a collection the collection's id (its documents are in `collection`)" },
  collection: { description: "the collection benchmarked, with its documents; null for one document" },
  strategies_used: { type: "array", items: string },
  questions_count: integer,
  aggregate_metrics: { type: "object", description: "per strategy or variant, every metric with its confidence interval" },
  best_strategy: { type: "string", description: "the highest composite score; a recommendation only when verdict_status says so" },
  headline: { type: "string", description: "the answer in one sentence: 'Use X: …', 'No clear winner among …', 'Smoke test, …', 'No recommendation: …'" },
  verdict_status: { type: "string", description: "what the headline may claim: recommendation, no_clear_winner, smoke_test, single_strategy or not_scored" },
  inseparable_from_best: { type: "array", items: string, description: "the strategies the highest composite cannot be separated from" },
  verdict: {
    type: "string",
    description: "the highest composite's lead over each other strategy: significant, or within noise with the questions that would tell",
  },
  comparisons: { type: "array", description: "the highest composite against each other strategy: difference, interval, p-value" },
  total_latency_seconds: { type: "number" },
  estimated_cost_usd: { type: "number" },
  gates: {
    type: "array",
    items: object(["gate", "strategy", "passed", "detail", "notes"], {
      gate: string,
      strategy: string,
      passed: { type: "boolean" },
      detail: string,
      notes: { type: "array", items: string },
    }),
    description:
      "the gates the run was asked to check (a request's fail_under, fail_over, fail_on_regression, max_drop, or bench's CI options), " +
      "each with its outcome; absent when none",
  },
  created_at: string,
};
const experimentRequired = ["experiment_id", "strategies_used", "questions_count", "aggregate_metrics", "best_strategy", "verdict", "created_at"];
const experimentSchema = object(experimentRequired, experimentProperties);
const exportSchema = object(
  [...experimentRequired, "details", "results"],
  { ...experimentProperties, details: { type: "object" }, results: { type: "object", description: "per strategy, every question's result" } },
  "the JSON export: the experiment with its run details and every per-question result",
);
const experimentSummarySchema = object(["id", "strategies_used", "created_at"], {
  id: string,
  document_id: { description: "the document benchmarked, or for a collection the collection's id" },
  document_name: { description: "the document's file name, or the collection's name" },
  strategies_used: { type: "array", items: string },
  created_at: string,
});
const collectionSchema = object(["id", "name", "documents", "created_at"], {
  id: string,
  name: string,
  documents: {
    type: "array",
    items: object(["id", "filename"], {
      id: string,
      filename: string,
      warnings: { type: "array", items: string, description: "what reading the document left out at its upload (pages of glyph codes); absent when nothing" },
    }),
  },
  created_at: string,
});
const questionsFileSchema = object(["metadata", "questions"], {
  metadata: { type: "object" },
  questions: { type: "array", description: "{question, expected_answer, references}: can be sent inline to POST /benchmarks" },
});
const questionProblemSchema = object(["item", "question", "kind", "detail", "closest"], {
  item: { type: "integer", description: "1-based, as the list gives them" },
  question: string,
  kind: { type: "string", enum: ["reference_not_found", "reference_ambiguous", "reference_offsets", "duplicate", "copies_excerpt"] },
  detail: string,
  closest: {
    type: ["object", "null"],
    description: "where a reference is not found: the closest passage of the documents, to paste instead",
    properties: { document: string, text: string, similarity: { type: "number" } },
  },
});
const questionsCheckSchema = object(["questions", "references", "located", "problems", "copying", "leak", "smoke_test"], {
  questions: { type: "integer" },
  references: { type: "integer" },
  located: { type: "object", description: "references found as written (exact), with white space or typography normalised, or as the same words" },
  problems: {
    type: "array",
    items: questionProblemSchema,
    description: "what fails the check: references not found, ambiguous or at wrong offsets, duplicates",
  },
  copying: { type: "array", items: questionProblemSchema, description: "questions that copy their excerpt's wording" },
  leak: { type: "object", description: "the set's vocabulary leak" },
  smoke_test: {
    type: ["string", "null"],
    description: "why a benchmark on these questions would be a smoke test, not a recommendation; null when it would not",
  },
});
const strategiesSchema = object(["strategies"], {
  strategies: {
    type: "array",
    items: object(["name", "description", "parameters"], {
      name: string,
      description: string,
      parameters: { type: "array", items: object(["name", "description", "default"], { name: string, description: string, default: {} }) },
    }),
  },
});
const readinessDetails = object(["questions_dir", "questions_dir_exists"], {
  questions_dir: { type: "string", description: "the folder POST /benchmarks reads questions_file from" },
  questions_dir_exists: { type: "boolean" },
});
const domainSchema = object(["domain", "display_name", "status", "created_at", "updated_at"], {
  domain: string,
  display_name: string,
  status: { type: "string", enum: ["active", "disabled"] },
  created_at: string,
  updated_at: string,
});
const ingestedSchema = object(["file_id", "ingestion_job_id", "domain", "filename", "version", "chunks_indexed", "points_created", "points_soft_deleted"], {
  file_id: string,
  ingestion_job_id: string,
  domain: string,
  filename: string,
  version: integer,
  chunks_indexed: integer,
  points_created: integer,
  points_soft_deleted: integer,
});
const ingestionJobSchema = object(["id", "domain", "filename", "status", "created_at"], {
  id: string,
  domain: string,
  filename: string,
  status: { type: "string", enum: ["running", "completed", "failed"] },
  error_code: { description: "when failed: the error's code" },
  error: { description: "when failed: why" },
  chunks_indexed: integer,
  points_created: integer,
  points_soft_deleted: integer,
  created_at: string,
  finished_at: { description: "null while running" },
});
const pointProperties = {
  point_id: string,
  domain: string,
  source_file_id: string,
  filename: string,
  version: integer,
  chunk_index: integer,
  text: string,
  start: integer,
  end: integer,
};
const pointSchema = object(["point_id", "domain", "source_file_id", "filename", "version", "chunk_index", "text"], pointProperties);

interface Success {
  description: string;
  /** A JSON body; absent with `content`. */
  schema?: unknown;
  /** Bodies of other media types. */
  content?: Record<string, unknown>;
}

/** An operation's own responses: its successes and the catalogue errors its work can raise (the generic ones are added by `responsesOf`). */
interface Operation {
  success: Record<number, Success>;
  errors?: ErrorClass[];
}

const background = (status: number, what: string, schema: unknown): Record<number, Success> => ({
  [status]: { description: what, schema },
  202: { description: "background=true: the job that does it, pending; poll its poll_url", schema: enqueuedSchema },
});
const MODEL_ERRORS = [ProviderError, IndexFailedError];

/** Keyed by method and route URL as Fastify has them (`/documents/:doc_id`). */
const OPERATIONS: Record<string, Operation> = {
  "GET /documents": { success: { 200: { description: "the documents, newest first", schema: page(documentSchema) } } },
  "POST /documents": {
    success: {
      201: { description: "the new document (already_stored: false)", schema: uploadedSchema },
      200: { description: "these bytes are stored already: the document that holds them (already_stored: true); nothing stored", schema: uploadedSchema },
    },
    errors: [ChunkingError, DocumentLimitError, ServerBusyError],
  },
  "GET /documents/:doc_id": {
    success: {
      200: {
        description: "the document with its extracted text and blocks, and `warnings` when reading it left pages out (glyph codes, not text)",
        schema: { type: "object" },
      },
    },
    errors: [QueryError],
  },
  "GET /documents/:doc_id/chunks": {
    success: {
      200: {
        description: "the strategy's current chunks of the document, in order",
        schema: object(["document_id", "filename", "strategy", "chunks"], {
          document_id: string,
          filename: string,
          strategy: string,
          chunks: { type: "array" },
        }),
      },
    },
    errors: [QueryError, NotFoundError],
  },
  "DELETE /documents/:doc_id": {
    success: {
      200: {
        description: "deleted, with its chunks, vectors and stored file",
        schema: object(["deleted", "document_id"], { deleted: { type: "boolean" }, document_id: string }),
      },
    },
  },
  "POST /documents/:doc_id/process": {
    success: background(200, "each strategy's outcome", processedSchema),
    errors: [ChunkingError, DocumentLimitError, ServerBusyError, ...MODEL_ERRORS],
  },
  "GET /strategies": { success: { 200: { description: "the chunking strategies with their parameters", schema: strategiesSchema } } },
  "POST /queries": {
    success: { 201: { description: "the query with its answer and retrieved chunks", schema: querySchema } },
    errors: [QueryError, ...MODEL_ERRORS],
  },
  "GET /queries/:query_id": { success: { 200: { description: "the query", schema: querySchema } } },
  "POST /benchmarks": {
    success: background(201, "the experiment", experimentSchema),
    // NotFoundError: an unknown document_id, collection_id or baseline_experiment_id.
    errors: [BenchmarkError, ChunkingError, DocumentLimitError, NotFoundError, ServerBusyError, ...MODEL_ERRORS],
  },
  "GET /benchmarks/:experiment_id": { success: { 200: { description: "the experiment", schema: experimentSchema } } },
  "GET /benchmarks/:experiment_id/report": {
    success: {
      200: {
        description: "the report: HTML (format=html), Markdown (format=md) or the JSON export (format=json)",
        content: { "text/html": { schema: string }, "text/markdown": { schema: string }, "application/json": { schema: exportSchema } },
      },
    },
  },
  "GET /benchmarks/:experiment_id/ci": {
    success: {
      200: {
        description: "the gates as JUnit XML (format=junit), the Markdown summary (format=summary) or the run as a baseline file (format=baseline)",
        content: { "application/xml": { schema: string }, "text/markdown": { schema: string }, "application/json": { schema: { type: "object" } } },
      },
    },
  },
  "GET /experiments": { success: { 200: { description: "experiment summaries, newest first", schema: page(experimentSummarySchema) } } },
  "GET /collections": { success: { 200: { description: "the collections, newest first", schema: page(collectionSchema) } } },
  "POST /collections": { success: { 201: { description: "the new collection", schema: collectionSchema } }, errors: [ConflictError] },
  "GET /collections/:collection_id": { success: { 200: { description: "the collection with its documents", schema: collectionSchema } } },
  "DELETE /collections/:collection_id": {
    success: {
      200: {
        description: "deleted; its documents stay",
        schema: object(["deleted", "collection_id"], { deleted: { type: "boolean" }, collection_id: string }),
      },
    },
  },
  "POST /collections/:collection_id/documents": {
    success: { 200: { description: "the collection with the documents added", schema: collectionSchema } },
    errors: [ConflictError, ChunkingError, DocumentLimitError, ServerBusyError, ...MODEL_ERRORS],
  },
  "DELETE /collections/:collection_id/documents/:doc_id": {
    success: { 200: { description: "the collection without the document (the document stays stored)", schema: collectionSchema } },
  },
  "POST /questions/generate": {
    success: background(201, "the questions file", questionsFileSchema),
    errors: [BenchmarkError, ServerBusyError, ...MODEL_ERRORS],
  },
  "POST /questions/check": {
    success: {
      200: { description: "the check: references located, problems with the closest passage, copied wording, a smoke test", schema: questionsCheckSchema },
    },
    // NotFoundError: an unknown document_id or collection_id.
    errors: [BenchmarkError, NotFoundError, ServerBusyError],
  },
  "GET /jobs": { success: { 200: { description: "the jobs, newest first", schema: page(jobSchema) } } },
  "GET /jobs/:job_id": { success: { 200: { description: "the job", schema: jobSchema } } },
  "POST /jobs/:job_id/cancel": {
    success: { 200: { description: "the job, failed with the reason it was cancelled", schema: jobSchema } },
    // ConflictError: the job has already ended.
    errors: [ConflictError],
  },
  "GET /healthz": { success: { 200: { description: "the process is alive", schema: object(["status"], { status: { type: "string", enum: ["ok"] } }) } } },
  "GET /readyz": {
    success: {
      200: {
        description: "ready: the vector store answers and its chunks collection exists (details only with the evaluation API key, or locally when none is set)",
        schema: object(["status"], { status: { type: "string", enum: ["ready"] }, details: readinessDetails }),
      },
      503: {
        description: "not ready, and why (reason and details only with the evaluation API key, or locally when none is set)",
        schema: object(["status", "request_id"], {
          status: { type: "string", enum: ["not_ready"] },
          reason: string,
          request_id: string,
          details: readinessDetails,
        }),
      },
    },
  },
  "GET /v1/domains": { success: { 200: { description: "the tenant's domains", schema: page(domainSchema) } } },
  "POST /v1/domains": { success: { 201: { description: "the new domain, active", schema: domainSchema } }, errors: [ConflictError] },
  "PATCH /v1/domains/:domain": { success: { 200: { description: "the domain", schema: domainSchema } } },
  "POST /v1/domains/:domain/disable": { success: { 200: { description: "the domain, disabled", schema: domainSchema } } },
  "POST /v1/domains/:domain/enable": { success: { 200: { description: "the domain, active", schema: domainSchema } } },
  "POST /v1/files": {
    success: { 201: { description: "the file ingested: its version and the points written and retired", schema: ingestedSchema } },
    errors: [
      UnknownDomainError,
      ChunkingError,
      DocumentLimitError,
      ChunkLimitError,
      ConcurrencyLimitError,
      ServerBusyError,
      IngestionTimeoutError,
      ...MODEL_ERRORS,
    ],
  },
  "GET /v1/ingestion-jobs/:job_id": { success: { 200: { description: "the ingestion job", schema: ingestionJobSchema } } },
  "GET /v1/points": { success: { 200: { description: "live points, by file name, version and chunk", schema: page(pointSchema) } } },
  "GET /v1/points/:point_id": { success: { 200: { description: "the point", schema: pointSchema } } },
  "POST /v1/search": {
    success: {
      200: {
        description: "the best-matching live points, best first",
        schema: object(["items"], {
          items: { type: "array", items: object([...pointSchema.required, "score"], { ...pointProperties, score: { type: "number" } }) },
        }),
      },
    },
    errors: MODEL_ERRORS,
  },
};

const HEALTH = new Set(["/healthz", "/readyz"]);

/**
 * Every error an operation can answer with: its own, and those any route of its kind can give:
 * 422 for invalid input, 404 and 414 for a path parameter, 413 for a body too large, 401 without
 * the API key (every /v1 route; the other routes when `api_key` is set), 403 without the /v1
 * route's scope, and 500.
 */
function errorsOf(route: RouteOptions, own: ErrorClass[], apiKey: boolean): DocumentedError[] {
  const url = route.url!;
  const method = String(route.method);
  const classes = new Set<ErrorClass>(own);
  const hasParameters = url.includes(":");
  const hasBody = ["POST", "PATCH", "PUT"].includes(method);
  if (hasParameters || hasBody || route.schema?.querystring) classes.add(ValidationError);
  if (hasParameters) classes.add(NotFoundError);
  if (hasBody) classes.add(PayloadTooLargeError);
  if (route.config?.scopes) classes.add(AuthenticationError).add(ForbiddenError);
  else if (apiKey && !HEALTH.has(url)) classes.add(AuthenticationError);
  return [...[...classes].map(documented), ...(hasParameters ? [PATH_TOO_LONG] : []), INTERNAL];
}

/** An operation's `response` for the OpenAPI document, by status; undefined for a route not listed (the test finds it). */
export function responsesOf(route: RouteOptions, apiKey: boolean): Record<string, unknown> | undefined {
  const operation = OPERATIONS[`${String(route.method)} ${route.url}`];
  if (!operation) return undefined;
  // By reference: the document lists each error body once, under components.
  const errorSchema = { $ref: `${(route.url!.startsWith("/v1/") ? v1ErrorBodySchema : errorBodySchema).$id}#` };
  const responses: Record<string, unknown> = {};
  for (const [status, s] of Object.entries(operation.success)) {
    responses[status] = { description: s.description, content: s.content ?? { "application/json": { schema: s.schema } } };
  }
  const byStatus = new Map<number, DocumentedError[]>();
  for (const e of errorsOf(route, operation.errors ?? [], apiKey)) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
  for (const [status, errors] of [...byStatus].sort(([a], [b]) => a - b)) {
    const cases = errors.map((e) => `${e.when} (${route.url!.startsWith("/v1/") ? e.code : e.type})`);
    responses[status] = { description: [...new Set(cases)].join("; "), content: { "application/json": { schema: errorSchema } } };
  }
  return responses;
}
