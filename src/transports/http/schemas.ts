import { DEFAULTS } from "../../config/defaults.js";
import { JOB_STATUSES, EVALUATION_JOB_TYPES } from "../../services/jobs.js";

/** JSON schemas of the evaluation API's requests; they validate and feed the OpenAPI document. */

export const idParams = (name: string) => ({ type: "object", required: [name], properties: { [name]: { type: "string", minLength: 1 } } }) as const;

/** `offset` and `limit` of every list (both surfaces); an absurd offset is 422, not a 500 from the store. */
export const pageProperties = {
  offset: { type: "integer", minimum: 0, maximum: DEFAULTS.maxListOffset, default: 0 },
  limit: { type: "integer", minimum: 1, maximum: DEFAULTS.maxListLimit, default: DEFAULTS.listLimit },
} as const;

export const pageQuery = { type: "object", additionalProperties: false, properties: pageProperties } as const;

export const backgroundQuery = {
  type: "object",
  additionalProperties: false,
  properties: { background: { type: "boolean", default: false } },
} as const;

export const uploadQuery = {
  type: "object",
  additionalProperties: false,
  properties: { new: { type: "boolean", default: false, description: "store a new document even if the same bytes are stored already" } },
} as const;

// Request bodies refuse unknown fields (422), as the /v1 schemas do (SPEC §4 rule 5).
export const processBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    strategies: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: "strategy names or variants (recursive@chunk_size=128); all when absent",
    },
  },
} as const;

export const queryBody = {
  type: "object",
  additionalProperties: false,
  required: ["document_id", "strategy", "question"],
  properties: {
    document_id: { type: "string", minLength: 1, description: "a document id, or a collection's id or name (every document searched)" },
    strategy: { type: "string", minLength: 1, description: "a strategy or a variant it was processed with, e.g. recursive@chunk_size=128" },
    question: { type: "string", minLength: 1 },
    top_k: { type: "integer", minimum: 1, maximum: DEFAULTS.maxTopK },
  },
} as const;

export const collectionBody = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: 100 },
    document_ids: { type: "array", items: { type: "string", minLength: 1 }, description: "stored documents to put in it" },
  },
} as const;

export const benchmarkBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    document_id: { type: "string", minLength: 1, description: "the document to benchmark (or collection_id)" },
    collection_id: {
      type: "string",
      minLength: 1,
      description: "a collection (id or name) to benchmark instead of document_id: each question searches all its documents",
    },
    strategies: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: "strategy names or variants (recursive@chunk_size=128:retrieval=hybrid); all when absent and no sweep",
    },
    sweep: {
      type: "array",
      items: { type: "string", minLength: 1 },
      description: "sweep shorthands, each expanding to a grid of variants: recursive:chunk_size=128,256:chunk_overlap=0,32",
    },
    max_variants: { type: "integer", minimum: 1, description: `refuse more variants than this (default ${DEFAULTS.maxSweepVariants})` },
    questions_file: {
      type: "string",
      minLength: 1,
      description: "a path inside the server's questions directory (questions_dir, given by GET /readyz as details.questions_dir)",
    },
    questions: {
      type: "array",
      items: { type: "object" },
      description: "the questions inline, [{question, expected_answer?, references?}], instead of questions_file",
    },
    top_k: { type: "integer", minimum: 1, maximum: DEFAULTS.maxTopK },
    dry_run: { type: "boolean", default: false },
    chunks: {
      type: "object",
      additionalProperties: { type: "array", items: { type: "object" } },
      description: "chunks your own pipeline made, benchmarked beside the strategies: {name: [{document, text, start?, end?}]}; README: Your own chunks",
    },
  },
} as const;

export const reportQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    view: { type: "string", enum: ["managerial", "technical"], default: "managerial" },
    format: { type: "string", enum: ["html", "md", "json"], default: "html" },
    baseline: { type: "string", minLength: 1, maxLength: 200, description: "an earlier experiment id: show every metric's change against it" },
  },
} as const;

export const jobsQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...pageProperties,
    job_type: { type: "string", enum: [...EVALUATION_JOB_TYPES] },
    status: { type: "string", enum: [...JOB_STATUSES] },
  },
} as const;
