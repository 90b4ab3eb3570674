import { SUPPORTED_FORMATS_TEXT } from "../../api/about.js";

/** The `file` part of an upload, as the OpenAPI document describes it. */
const FILE_PART = {
  type: "string",
  format: "binary",
  description: `the document (${SUPPORTED_FORMATS_TEXT}; the format is read from its bytes), at most max_upload_mb; its file name is the document's`,
} as const;

/** A multipart/form-data body of one `file` part and the given text fields (all required). */
export function multipartUpload(fields: Record<string, { type: "string"; maxLength: number; description: string }> = {}) {
  return {
    type: "object",
    additionalProperties: false,
    required: ["file", ...Object.keys(fields)],
    properties: { file: FILE_PART, ...fields },
  } as const;
}

/**
 * Route config that puts a request body into the OpenAPI document only (the document's transform
 * in app.ts reads it: openapiBodyOf). Upload routes read their multipart body themselves
 * (readMultipartUpload, which answers 422 or 413 for what is wrong in it): a `body` schema on the
 * route would make Fastify validate a body it never parses. `content` maps each media type the
 * route accepts to its schema.
 */
export function documentedBody(content: Record<string, object>) {
  return { openapiBody: { content: Object.fromEntries(Object.entries(content).map(([type, s]) => [type, { schema: s }])) } };
}

/** The request body a route documents with documentedBody, if any. */
export function openapiBodyOf(route: { config?: unknown }): object | undefined {
  const config = route.config as { openapiBody?: object } | undefined;
  return config?.openapiBody;
}
