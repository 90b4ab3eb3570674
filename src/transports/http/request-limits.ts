/**
 * How large each part of a request body, query or path may be (docs/http-api.md "Request limits"). The
 * JSON body as a whole is bounded by `max_json_body_kb`; these bound its parts, so that no list
 * or string can make the work a request asks for grow past what a server can do at once (a sweep
 * of six axes is millions of variants in 300 bytes; a reference is located in the document's
 * text). An architecture test checks that every string and list of every route has a bound.
 */
export const REQUEST_LIMITS = {
  /** Ids, names, domains, file names, questions_file paths, generator names. */
  name: 300,
  /** One strategy or variant (`recursive@chunk_size=128:retrieval=hybrid`). */
  variant: 500,
  /** One sweep shorthand (`recursive:chunk_size=128,256:chunk_overlap=0,32`). */
  sweep: 2000,
  /** Strategies, sweeps and document ids of one request. */
  listItems: 100,
  sweeps: 16,
  /** Embedders of one benchmark (`embedders`): each builds every strategy's index again. */
  embedders: 4,
  /** A question, and a /v1 search query. */
  question: 2000,
  /** An expected answer, a reference's text, an imported chunk's text. */
  text: 100_000,
  /** Inline questions of one benchmark, and references per question. */
  questions: 2000,
  references: 50,
  /** Inline chunk lists (`chunks` of POST /benchmarks) and the chunks of all of them together. */
  chunkLists: 16,
  chunks: 20_000,
} as const;

/** A string of at most `maxLength` characters (and at least one unless `minLength` says otherwise). */
export const boundedString = (maxLength: number, extra: Record<string, unknown> = {}) => ({ type: "string", minLength: 1, maxLength, ...extra }) as const;
