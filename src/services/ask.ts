import { DEFAULTS } from "../config/defaults.js";
import { NotFoundError, QueryError, ValidationError } from "../errors.js";
import { newId, nowTimestamp } from "../domain/ids.js";
import type { QueryRecord } from "../domain/types.js";
import { retrieve } from "../retrieval/retrieve.js";
import type { ServiceContext } from "./context.js";
import { requireDocument } from "./documents.js";

export interface AskInput {
  documentId: string;
  strategy: string;
  question: string;
  topK?: number;
  /** Store the query (default true); benchmarks keep their own per-question records. */
  store?: boolean;
  signal?: AbortSignal;
}

/** Checks a top-k value: a whole number from 1 to the documented maximum. */
export function checkTopK(topK: number): number {
  if (!Number.isInteger(topK) || topK < 1 || topK > DEFAULTS.maxTopK) {
    throw new ValidationError(`top_k must be a whole number from 1 to ${DEFAULTS.maxTopK}, got ${topK}`);
  }
  return topK;
}

/**
 * Answers a question about one document with one strategy: embeds the question with the
 * embedder the strategy was processed with, retrieves the top-k chunks, generates an answer,
 * and records latency and token usage.
 */
export async function askQuestion(ctx: ServiceContext, input: AskInput): Promise<QueryRecord> {
  const question = input.question.trim();
  if (!question) throw new ValidationError("the question is empty");
  const topK = checkTopK(input.topK ?? ctx.config.topK);
  if (!ctx.strategies.names().includes(input.strategy)) {
    throw new QueryError(`unknown strategy "${input.strategy}" (valid: ${ctx.strategies.names().join(", ")})`);
  }
  requireDocument(ctx, input.documentId);
  const state = ctx.chunks.state(input.documentId, input.strategy);
  if (!state) {
    throw new QueryError(
      `document ${input.documentId} has not been processed with strategy ${input.strategy}; ` +
        `run: chunkeval process ${input.documentId} --strategies ${input.strategy}`,
    );
  }
  const started = performance.now();
  const retrieval = await retrieve(
    { vectors: await ctx.vectors(), chunks: ctx.chunks, embedder: await ctx.embedder(state.embedder) },
    state,
    question,
    topK,
    input.signal,
  );
  const generator = await ctx.generator();
  const answerStart = performance.now();
  const generation = await generator.answer(question, retrieval.chunks, input.signal);
  const finished = performance.now();
  const record: QueryRecord = {
    queryId: newId("qry"),
    documentId: input.documentId,
    strategy: input.strategy,
    question,
    answer: generation.answer,
    retrievedChunks: retrieval.chunks,
    latencyBreakdown: {
      embedSeconds: retrieval.embedSeconds,
      searchSeconds: retrieval.searchSeconds,
      answerSeconds: (finished - answerStart) / 1000,
      totalSeconds: (finished - started) / 1000,
    },
    tokenUsage: generation.usage,
    generator: generator.name,
    createdAt: nowTimestamp(),
  };
  if (input.store !== false) ctx.queries.insert(record);
  return record;
}

export function getQuery(ctx: ServiceContext, queryId: string): QueryRecord {
  const found = ctx.queries.get(queryId);
  if (!found) throw new NotFoundError(`query not found: ${queryId}`);
  return found;
}
