import { CancelledError, ChunkevalError, ChunkingError, describeError, IndexFailedError, NotFoundError, throwIfCancelled } from "../../errors.js";
import { nowTimestamp } from "../../domain/ids.js";
import type { ProcessResult, RunOptions, StoredDocument, StrategyFailure, StrategyRunSummary } from "../../domain/types.js";
import { mapWithConcurrency } from "../../domain/concurrency.js";
import type { CachedEmbedder } from "../../embedders/cache.js";
import type { ChunkingLlm } from "../../strategies/strategy.js";
import type { VectorStore } from "../../stores/vectors/vector-store.js";
import type { ServiceContext } from "../context.js";
import { requireDocument } from "./documents.js";
import { runIndexing, type IndexPlan, type IndexSink } from "./indexing.js";
import { embedderOf, planVariants, type StrategyVariant } from "./variants.js";

export interface ProcessOptions extends RunOptions {
  /** Per-strategy option overrides on top of the configuration's, for plain names (a variant carries its own). */
  strategyOptions?: Record<string, Record<string, unknown>>;
}

/** What one variant's processing uses: a metered embedder and LLM let a caller bill each variant. */
export interface VariantProcessing extends RunOptions {
  embedder: CachedEmbedder;
  llm: ChunkingLlm | undefined;
  strategyOptions?: Record<string, unknown>;
}

/**
 * Variants processed side by side. Chunking runs in the worker pool and embedding calls queue
 * at the embedder, so more than this would only add waiting and memory.
 */
export const PROCESS_CONCURRENCY = 4;

function tokenStats(chunks: Array<{ tokenCount: number }>): StrategyRunSummary["tokens"] {
  const sizes = chunks.map((c) => c.tokenCount);
  if (sizes.length === 0) return { mean: 0, min: 0, max: 0 };
  return { mean: sizes.reduce((a, b) => a + b, 0) / sizes.length, min: Math.min(...sizes), max: Math.max(...sizes) };
}

/**
 * The sink of a strategy's chunks (write order: ../stores/README.md): the generation is
 * recorded as pending before any vector is written, becomes current in one SQLite
 * transaction, and only then are the vectors of the generation it replaced deleted.
 */
async function generationSink(ctx: ServiceContext, store: VectorStore, document: StoredDocument, key: string, plan: IndexPlan): Promise<IndexSink<void>> {
  const space = store.spaceFor(plan.embedder, plan.dimension);
  const scope = { documentId: document.id, strategy: key, generation: plan.generation };
  await ctx.chunks.beginGeneration({ ...scope, vectorSpace: space }, ctx.owner);
  return {
    write: (chunks) =>
      store.add(
        space,
        chunks.map((c) => ({ ...scope, chunkId: c.chunk.id, text: c.text, vector: c.vector })),
      ),
    async commit() {
      const searchable = plan.chunks.filter((c) => c.role === "chunk").length;
      const previous = await ctx.chunks.commitGeneration(
        {
          ...scope,
          options: plan.strategy.options,
          embedder: plan.embedder,
          vectorSpace: space,
          retrieval: plan.strategy.retrieval,
          chunkCount: searchable,
          processedAt: nowTimestamp(),
        },
        plan.chunks,
      );
      // Committed: a failure from here on leaves only unreferenced vectors, which cleanup removes.
      if (previous && previous.generation !== scope.generation) await store.deleteGeneration(previous.vectorSpace, previous).catch(() => undefined);
    },
    async discard() {
      // Vectors first, then the pending row: a crash in between leaves a pending row of a dead owner.
      await store.deleteGeneration(space, scope).catch(() => undefined);
      try {
        await ctx.chunks.dropPending(scope.generation);
      } catch {
        // The row then belongs to this (eventually gone) process and is reclaimed as abandoned.
      }
    },
  };
}

/**
 * Chunks, embeds and indexes one variant through the indexing pipeline; its chunks are stored
 * under the variant's index key (the plain name for a plain strategy).
 */
export async function processVariant(
  ctx: ServiceContext,
  document: StoredDocument,
  variant: StrategyVariant,
  options: VariantProcessing,
): Promise<StrategyRunSummary> {
  const started = performance.now();
  // A store's own message can carry file paths and source locations: name the step instead.
  const store = await ctx.vectors().catch((error: unknown) => {
    if (error instanceof ChunkevalError) throw error; // already says what is wrong, without the store's internals
    throw new IndexFailedError("processing failed while opening the vector store", { cause: error });
  });
  const key = variant.indexKey;
  const { searchable } = await runIndexing(
    ctx,
    {
      document,
      strategy: variant.strategy,
      strategyOptions: { ...variant.options, ...options.strategyOptions },
      embedder: options.embedder,
      llm: options.llm,
      embedBatchSize: ctx.config.embedBatchSize,
      maxChunks: { limit: ctx.config.maxChunksPerDocument, setting: "max_chunks_per_document" },
      signal: options.signal,
      // The count of chunks embedded is a stage of its own ("embed"): its pace gives the document's time left.
      report: (message, embedded) =>
        options.onProgress?.(embedded ? { stage: "embed", strategy: key, message, ...embedded } : { stage: "index", strategy: key, message }),
    },
    (plan) => generationSink(ctx, store, document, key, plan),
  );
  const chunks = searchable.length;
  options.onProgress?.({
    stage: "index",
    strategy: key,
    message: `${chunks} chunk${chunks === 1 ? "" : "s"} of ${document.filename} indexed`,
    done: chunks,
    total: chunks,
  });
  return {
    strategy: key,
    status: "completed",
    chunksProduced: chunks,
    tokens: tokenStats(searchable),
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * The checks a processing request passes before any work starts (known strategies and valid
 * variants, an existing document): a background request runs them before its 202.
 */
export async function checkProcessInput(
  ctx: ServiceContext,
  documentId: string,
  strategies: string | string[],
): Promise<{ variants: StrategyVariant[]; document: StoredDocument }> {
  const { variants } = await planVariants(ctx, { strategies }, ChunkingError);
  // Variants that differ only at search time share one index: it is processed once.
  return { variants: variants.filter((v, i) => variants.findIndex((w) => w.indexKey === v.indexKey) === i), document: await requireDocument(ctx, documentId) };
}

/**
 * Runs chunking strategies or variants (docs/benchmarks.md "Variants and sweeps") over a document, the
 * independent ones side by side. Variants that differ only in search parameters share one
 * index and are processed once. A strategy that fails is reported in `strategiesFailed` while
 * the others complete; cancellation stops the whole run.
 */
export async function processDocument(
  ctx: ServiceContext,
  documentId: string,
  strategies: string | string[],
  options: ProcessOptions = {},
): Promise<ProcessResult> {
  const { variants, document } = await checkProcessInput(ctx, documentId, strategies);
  // Each variant is embedded with its own embedder (`@embedder=`), else the configured one.
  const embedders = new Map<string, CachedEmbedder>();
  for (const spec of new Set(variants.map((v) => embedderOf(ctx, v)))) embedders.set(spec, await ctx.embedder(spec));
  const notCachedNow = () => [...embedders.values()].reduce((n, e) => n + e.stats.notCached, 0);
  const notCachedBefore = notCachedNow();
  const llm = await ctx.llm();
  let done = 0;
  options.onProgress?.({ stage: "process", message: `${variants.length} to process`, done: 0, total: variants.length });
  const outcomes = await mapWithConcurrency(
    variants,
    PROCESS_CONCURRENCY,
    async (variant): Promise<StrategyRunSummary | StrategyFailure> => {
      try {
        return await processVariant(ctx, document, variant, {
          embedder: embedders.get(embedderOf(ctx, variant))!,
          llm,
          strategyOptions: variant.indexKey === variant.strategy ? options.strategyOptions?.[variant.strategy] : undefined,
          signal: options.signal,
          onProgress: options.onProgress,
        });
      } catch (error) {
        if (error instanceof CancelledError) throw error;
        // Deleted meanwhile (by this or another process): the whole run is over, with a clear reason.
        if (!(await ctx.documents.get(documentId))) throw new NotFoundError(`document ${documentId} was deleted while it was being processed`);
        return { strategy: variant.indexKey, error: describeError(error) };
      } finally {
        done++;
        options.onProgress?.({ stage: "process", message: `${variant.indexKey} (${done}/${variants.length})`, done, total: variants.length });
      }
    },
    () => throwIfCancelled(options.signal),
  );
  const completed = outcomes.filter((o): o is StrategyRunSummary => "status" in o);
  const failed = outcomes.filter((o): o is StrategyFailure => "error" in o);
  options.onProgress?.({ stage: "process", message: "done", done: variants.length, total: variants.length });
  const notCached = notCachedNow() - notCachedBefore;
  const notes = notCached > 0 ? [cacheNotUpdatedNote(notCached)] : [];
  return { documentId, strategiesCompleted: completed, strategiesFailed: failed, ...(notes.length > 0 ? { notes } : {}) };
}

/** Said when vectors were computed but not cached: nothing failed, the next run computes them again. */
export function cacheNotUpdatedNote(texts: number): string {
  return (
    `the embedding cache was not updated for ${texts} text${texts === 1 ? "" : "s"} (its database was busy or unwritable, ` +
    "e.g. another process compacting it); the results are complete, and the next run computes them again"
  );
}
