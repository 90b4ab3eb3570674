import { NotFoundError, QueryError, ValidationError } from "../../errors.js";
import { newId, nowTimestamp } from "../../domain/ids.js";
import type { QueryRecord } from "../../domain/types.js";
import { retrieve } from "../../retrieval/retrieve.js";
import { mapWithConcurrency } from "../../domain/concurrency.js";
import type { ServiceContext } from "../context.js";
import { resolveVariant, variantSearchPlan } from "./variants.js";
import { requireDocument } from "./documents.js";
import { checkTopK } from "./top-k.js";

/** How many times `ask` searches again when the generation it read was replaced meanwhile. */
const GENERATION_RETRIES = 3;

export interface AskInput {
  /** A document id, or a collection's id or name: then every document of it is searched. */
  documentId: string;
  /** A strategy name or a variant (`recursive@chunk_size=128:retrieval=keyword`), as processed. */
  strategy: string;
  question: string;
  topK?: number;
  /** Store the query (default true); benchmarks keep their own per-question records. */
  store?: boolean;
  signal?: AbortSignal;
}

/**
 * Answers a question about one document with one strategy: embeds the question with the
 * embedder the strategy was processed with, retrieves the top-k chunks, generates an answer,
 * and records latency and token usage.
 */
export async function askQuestion(ctx: ServiceContext, input: AskInput): Promise<QueryRecord> {
  const question = input.question.trim();
  if (!question) throw new ValidationError("the question is empty");
  const variant = await resolveVariant(ctx, input.strategy, { topK: ctx.config.topK }, QueryError);
  const topK = checkTopK(input.topK ?? variant.topK ?? ctx.config.topK);
  const collection = await ctx.collections.find(input.documentId);
  const documentIds = collection ? collection.documents.map((d) => d.id) : [(await requireDocument(ctx, input.documentId)).id];
  if (documentIds.length === 0) throw new QueryError(`collection ${collection!.name} has no documents`);
  const currentStates = () =>
    mapWithConcurrency(documentIds, 1, async (id) => {
      const state = await ctx.chunks.state(id, variant.indexKey);
      if (!state) {
        throw new QueryError(
          `document ${id} has not been processed with strategy ${variant.indexKey}; ` + `run: chunkeval process ${id} --strategies ${variant.indexKey}`,
        );
      }
      return state;
    });
  let states = await currentStates();
  if (new Set(states.map((s) => s.vectorSpace)).size > 1) {
    throw new QueryError(
      `the documents were processed with ${variant.indexKey} by different embedders; process them again with one embedder (chunkeval bench does)`,
    );
  }
  const started = performance.now();
  const search = async () =>
    retrieve(
      { vectors: await ctx.vectors(), chunks: ctx.chunks, embedder: await ctx.embedder(states[0]!.embedder) },
      states,
      question,
      topK,
      input.signal,
      // Searched as a benchmark searches it (variants.ts variantSearchPlan): its own mode, else the
      // configured one way; a hybrid search's dense share is that of the embedder that made the vectors.
      variantSearchPlan(ctx, { retrieval: variant.retrieval, embedder: states[0]!.embedder }),
    );
  let retrieval = await search();
  // Another process may have re-processed the strategy between reading its state and searching:
  // the old generation's vectors went with it, and the search found nothing. Search the new one.
  for (let retry = 0; retry < GENERATION_RETRIES && retrieval.chunks.length === 0; retry++) {
    const now = await currentStates();
    if (now.every((s, i) => s.generation === states[i]!.generation)) break;
    states = now;
    retrieval = await search();
  }
  const generator = await ctx.generator();
  const answerStart = performance.now();
  const generation = await generator.answer(question, retrieval.chunks, input.signal);
  const finished = performance.now();
  const record: QueryRecord = {
    queryId: newId("qry"),
    // A collection's queries are recorded under its id, as its experiments are, whatever name was typed.
    documentId: collection?.id ?? input.documentId,
    strategy: variant.key,
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
  if (input.store !== false) await ctx.queries.insert(record);
  return record;
}

export async function getQuery(ctx: ServiceContext, queryId: string): Promise<QueryRecord> {
  const found = await ctx.queries.get(queryId);
  if (!found) throw new NotFoundError(`query not found: ${queryId}`);
  return found;
}
