import { DEFAULTS } from "../../config/defaults.js";
import { boundedString, REQUEST_LIMITS as LIMIT } from "./request-limits.js";
import { SEARCH_MODES } from "../../domain/variant-key.js";
import { EVALUATION_JOB_TYPES, JOB_STATUSES } from "../../api/jobs.js";

/** JSON schemas of the evaluation API's requests; they validate and feed the OpenAPI document. */

export const idParams = (name: string) => ({ type: "object", required: [name], properties: { [name]: boundedString(LIMIT.name) } }) as const;

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
      items: boundedString(LIMIT.variant),
      minItems: 1,
      maxItems: LIMIT.listItems,
      description: "strategy names or variants (recursive@chunk_size=128); all when absent",
    },
  },
} as const;

export const queryBody = {
  type: "object",
  additionalProperties: false,
  required: ["document_id", "strategy", "question"],
  properties: {
    document_id: boundedString(LIMIT.name, { description: "a document id, or a collection's id or name (every document searched)" }),
    strategy: boundedString(LIMIT.variant, { description: "a strategy or a variant it was processed with, e.g. recursive@chunk_size=128" }),
    question: boundedString(LIMIT.question),
    top_k: { type: "integer", minimum: 1, maximum: DEFAULTS.maxTopK },
  },
} as const;

export const collectionBody = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: boundedString(100),
    document_ids: { type: "array", items: boundedString(LIMIT.name), maxItems: LIMIT.listItems, description: "stored documents to put in it" },
  },
} as const;

/** A reference: the text, or {document?, text, start?, end?}; the rest is checked by validateQuestions with messages naming the item. */
const reference = {
  anyOf: [
    { type: "string", maxLength: LIMIT.text },
    { type: "object", properties: { document: { type: "string", maxLength: LIMIT.name }, text: { type: "string", maxLength: LIMIT.text } } },
  ],
} as const;

/** An inline question's bounds (its fields and their meaning are validateQuestions' to check). */
export const inlineQuestion = {
  type: "object",
  properties: {
    question: { type: "string", maxLength: LIMIT.question },
    expected_answer: { type: ["string", "null"], maxLength: LIMIT.text },
    references: { type: "array", items: reference, maxItems: LIMIT.references },
    split: { type: "string", maxLength: LIMIT.name },
    flag: { type: "string", maxLength: LIMIT.name },
  },
} as const;

/** An imported chunk's bounds (chunksFromList checks the rest). */
const inlineChunk = {
  type: "object",
  properties: { document: { type: "string", maxLength: LIMIT.name }, text: { type: "string", maxLength: LIMIT.text } },
} as const;

export const benchmarkBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    document_id: boundedString(LIMIT.name, { description: "the document to benchmark (or collection_id)" }),
    collection_id: boundedString(LIMIT.name, {
      description: "a collection (id or name) to benchmark instead of document_id: each question searches all its documents",
    }),
    strategies: {
      type: "array",
      items: boundedString(LIMIT.variant),
      minItems: 1,
      maxItems: LIMIT.listItems,
      description: "strategy names or variants (recursive@chunk_size=128:retrieval=hybrid); all when absent and no sweep",
    },
    sweep: {
      type: "array",
      items: boundedString(LIMIT.sweep),
      maxItems: LIMIT.sweeps,
      description: "sweep shorthands, each expanding to a grid of variants: recursive:chunk_size=128,256:chunk_overlap=0,32",
    },
    retrievers: {
      type: "array",
      items: { type: "string", enum: [...SEARCH_MODES] },
      minItems: 1,
      maxItems: SEARCH_MODES.length,
      uniqueItems: true,
      description: "run every strategy under each of these search modes; the verdict says whether the winner holds under each",
    },
    embedders: {
      type: "array",
      items: boundedString(LIMIT.name),
      minItems: 1,
      maxItems: LIMIT.embedders,
      uniqueItems: true,
      description:
        "run every strategy with each of these embedders (each its own index): the verdict says whether the winner holds with each. " +
        "Over HTTP: the server's configured embedder and the bundled ones (use, hash)",
    },
    max_variants: {
      type: "integer",
      minimum: 1,
      description: `refuse more variants than this (default ${DEFAULTS.maxSweepVariants}; at most the server's http_max_variants)`,
    },
    questions_file: boundedString(LIMIT.name, {
      description: "a path inside the server's questions directory (questions_dir, given by GET /readyz as details.questions_dir)",
    }),
    questions: {
      type: "array",
      items: inlineQuestion,
      maxItems: LIMIT.questions,
      description: "the questions inline, [{question, expected_answer?, references?}], instead of questions_file",
    },
    top_k: { type: "integer", minimum: 1, maximum: DEFAULTS.maxTopK },
    dry_run: { type: "boolean", default: false },
    fail_under: {
      type: "array",
      items: boundedString(LIMIT.name),
      maxItems: LIMIT.listItems,
      description: "floors on higher-is-better metrics, METRIC=VALUE (composite_score=0.5): each gate's outcome is in the experiment's gates",
    },
    fail_over: {
      type: "array",
      items: boundedString(LIMIT.name),
      maxItems: LIMIT.listItems,
      description: "ceilings on lower-is-better metrics, METRIC=VALUE (hallucination_rate=0.2)",
    },
    baseline_experiment_id: boundedString(LIMIT.name, { description: "a stored experiment that fail_on_regression and max_drop compare with" }),
    fail_on_regression: boundedString(LIMIT.name, {
      description: "comma-separated metrics (METRIC or METRIC@STRATEGY) whose significant drop against the baseline fails its gate (paired bootstrap, 95 %)",
    }),
    max_drop: {
      type: "array",
      items: boundedString(LIMIT.name),
      maxItems: LIMIT.listItems,
      description: "METRIC=V or METRIC@STRATEGY=V: the gate fails when the metric dropped against the baseline by more than V",
    },
    chunks: {
      type: "object",
      maxProperties: LIMIT.chunkLists,
      additionalProperties: { type: "array", items: inlineChunk, maxItems: LIMIT.chunks },
      description:
        "chunks your own pipeline made, benchmarked beside the strategies: {name: [{document, text, start?, end?}]}; docs/strategies.md: Your own chunks",
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

export const ciQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    format: {
      type: "string",
      enum: ["junit", "summary", "baseline"],
      default: "summary",
      description: "junit: the gates as JUnit XML; summary: the Markdown summary; baseline: the run as a baseline file",
    },
    baseline: { type: "string", minLength: 1, maxLength: 200, description: "an earlier experiment id: the summary shows every metric's change against it" },
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
