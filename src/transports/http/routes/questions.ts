import type { FastifyInstance } from "fastify";
import { DEFAULTS } from "../../../config/defaults.js";
import type { RouteDeps } from "../route-deps.js";
import { backgroundQuery, inlineQuestion } from "../schemas.js";
import { questionsFromRequest } from "../../../api/question-set.js";
import { boundedString, REQUEST_LIMITS as LIMIT } from "../request-limits.js";
import { toWire } from "../../serialize.js";
import { checkQueueRoom, enqueueBody } from "./jobs.js";
import { ValidationError } from "../../../errors.js";
import type { ChunkevalConfig } from "../../../config/schema.js";

const generateBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    document_id: boundedString(LIMIT.name, { description: "the document (or collection_id)" }),
    collection_id: boundedString(LIMIT.name, {
      description: "a collection (id or name): questions spread over its documents in proportion to their length, each reference naming its document",
    }),
    count: { type: "integer", minimum: 1, maximum: DEFAULTS.maxGeneratedQuestions, default: 10 },
    generator: boundedString(LIMIT.name, {
      pattern: "^(template|openai:.+)$",
      description: "template, or openai:<model>; the configured generator when absent",
    }),
    max_calls: { type: "integer", minimum: 1, description: "the chat calls this generation may make; at most the server's http_max_generation_calls" },
    min_excerpt_similarity: { type: "number", exclusiveMinimum: 0, maximum: 1 },
    duplicate_similarity: { type: "number", exclusiveMinimum: 0, maximum: 1 },
    negatives: {
      type: "integer",
      minimum: 0,
      maximum: DEFAULTS.maxGeneratedQuestions,
      default: 0,
      description: 'negative controls besides count: questions the document cannot answer ("answerable": false)',
    },
    multi_hop: {
      type: "integer",
      minimum: 0,
      maximum: DEFAULTS.maxGeneratedQuestions,
      default: 0,
      description: "with an LLM generator: questions besides count whose answer spans two passages, with references in both",
    },
    max_leak: {
      type: "number",
      exclusiveMinimum: 0,
      maximum: 1,
      description: "share of a question's words copied from its excerpt from which it is reworded, then dropped",
    },
    keep_leaky: { type: "boolean", description: "keep questions still copying their excerpt, flagged, instead of dropping them" },
  },
} as const;

const checkBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    document_id: boundedString(LIMIT.name, { description: "the document the questions are about (or collection_id)" }),
    collection_id: boundedString(LIMIT.name, { description: "a collection (id or name): each reference is looked for in its documents" }),
    questions_file: boundedString(LIMIT.name, { description: "a path inside the server's questions directory, instead of questions" }),
    questions: {
      type: "array",
      items: inlineQuestion,
      maxItems: LIMIT.questions,
      description: "the questions inline, [{question, expected_answer?, references?}], as a questions file lists them",
    },
    origin: {
      type: "object",
      additionalProperties: false,
      required: ["kind"],
      properties: { kind: { enum: ["template", "llm"] }, model: { type: ["string", "null"], maxLength: LIMIT.name } },
      description:
        "who wrote inline questions, as a generated file's metadata records it (POST /questions/generate returns it); " +
        "without it, a set worded as the template's is taken as template questions",
    },
  },
} as const;

interface CheckBody {
  document_id?: string;
  collection_id?: string;
  questions_file?: string;
  questions?: unknown;
  origin?: { kind: "template" | "llm"; model?: string | null };
}

interface GenerateBody {
  document_id?: string;
  collection_id?: string;
  count: number;
  generator?: string;
  max_calls?: number;
  min_excerpt_similarity?: number;
  duplicate_similarity?: number;
  negatives: number;
  multi_hop: number;
  max_leak?: number;
  keep_leaky?: boolean;
}

/**
 * A generator a caller names must be one the operator allows (http_generators; by default only
 * `template` and the configured generator): the server's provider key pays for it.
 */
function allowedGenerator(asked: string | undefined, config: ChunkevalConfig): string | undefined {
  if (asked === undefined) return undefined;
  const listed = config.http.generators
    .split(",")
    .map((g) => g.trim())
    .filter(Boolean);
  const allowed = [...new Set(["template", config.generator, ...listed])];
  if (!allowed.includes(asked)) {
    throw new ValidationError(`generator "${asked}" is not allowed on this server (allowed: ${allowed.join(", ")}; the operator sets http_generators)`);
  }
  return asked;
}

export function questionRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { chunkeval, jobs, admission } = deps;
  app.post(
    "/questions/generate",
    {
      schema: {
        tags: ["benchmarks"],
        summary: "Generate a questions file for a document (202 with a job when background=true); its questions can be sent inline to POST /benchmarks",
        querystring: backgroundQuery,
        body: generateBody,
      },
    },
    async (request, reply) => {
      const body = request.body as GenerateBody;
      if (!body.document_id === !body.collection_id) throw new ValidationError("give document_id or collection_id (one of them)");
      const named = body.document_id
        ? { document_name: (await chunkeval.getDocument(body.document_id)).filename }
        : { collection_name: (await chunkeval.getCollection(body.collection_id!)).name };
      const input = {
        ...(body.document_id ? { document: { id: body.document_id } } : { collection: { name: body.collection_id! } }),
        count: body.count,
        generator: allowedGenerator(body.generator, chunkeval.config),
        maxCalls: body.max_calls,
        maxCallsCap: chunkeval.config.http.maxGenerationCalls,
        minExcerptSimilarity: body.min_excerpt_similarity,
        duplicateSimilarity: body.duplicate_similarity,
        maxLeak: body.max_leak,
        keepLeaky: body.keep_leaky,
        negatives: body.negatives,
        multiHop: body.multi_hop,
      };
      if (!(request.query as { background: boolean }).background) {
        return reply.status(201).send(toWire(await admission.runSync(reply, (signal) => chunkeval.generateQuestions({ ...input, signal }))));
      }
      chunkeval.checkGenerateQuestions(input); // refused now exactly as the synchronous request, not as a failed job later
      await checkQueueRoom(deps);
      const job = await jobs.enqueue({
        jobType: "question_generation",
        params: { ...body, ...named },
        input,
        // Deleting the document cancels the job; a collection job is no one document's.
        document: body.document_id ? { id: body.document_id, filename: named.document_name! } : undefined,
      });
      return reply.status(202).send(enqueueBody(job));
    },
  );

  app.post(
    "/questions/check",
    {
      schema: {
        tags: ["benchmarks"],
        summary:
          "Check questions against their document or collection before a run, as `chunkeval questions validate` does: " +
          "references located, duplicates, copied wording, a smoke test",
        body: checkBody,
      },
    },
    async (request, reply) => {
      const body = request.body as CheckBody;
      if (!body.document_id === !body.collection_id) throw new ValidationError("give document_id or collection_id (one of them)");
      const { questions, origin } = await questionsFromRequest(chunkeval.config.questionsDir, {
        questionsFile: body.questions_file,
        questions: body.questions,
      });
      const target = body.document_id ? { document: { id: body.document_id } } : { collection: { name: body.collection_id! } };
      const given = body.origin ? { kind: body.origin.kind, model: body.origin.model ?? null } : null;
      const check = await admission.runSync(reply, (signal) => chunkeval.checkQuestions({ ...target, questions, origin: given ?? origin, signal }));
      return toWire(check);
    },
  );
}
