import { CancelledError, ChunkingError, describeError, NotFoundError, throwIfCancelled } from "../errors.js";
import { nowTimestamp } from "../domain/ids.js";
import type { ProcessResult, RunOptions, StoredDocument, StrategyFailure, StrategyRunSummary } from "../domain/types.js";
import { parseStrategyList } from "../strategies/registry.js";
import { vectorTableName, type VectorStore } from "../stores/vectors/vector-store.js";
import type { ServiceContext } from "./context.js";
import { requireDocument } from "./documents.js";
import { runIndexing, type IndexPlan, type IndexSink } from "./indexing.js";

export interface ProcessOptions extends RunOptions {
  /** Per-strategy option overrides on top of the configuration's. */
  strategyOptions?: Record<string, Record<string, unknown>>;
}

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
function generationSink(ctx: ServiceContext, store: VectorStore, document: StoredDocument, plan: IndexPlan): IndexSink<void> {
  const table = vectorTableName(plan.embedder, plan.dimension);
  const scope = { documentId: document.id, strategy: plan.strategy.name, generation: plan.generation };
  ctx.chunks.beginGeneration({ ...scope, vectorTable: table }, ctx.owner);
  return {
    write: (chunks) => store.add(table, chunks.map((c) => ({ ...scope, chunkId: c.chunk.id, text: c.text, vector: c.vector }))),
    async commit() {
      const searchable = plan.chunks.filter((c) => c.role === "chunk").length;
      const previous = ctx.chunks.commitGeneration(
        { ...scope, options: plan.strategy.options, embedder: plan.embedder, vectorTable: table, retrieval: plan.strategy.retrieval, chunkCount: searchable, processedAt: nowTimestamp() },
        plan.chunks,
      );
      // Committed: a failure from here on leaves only unreferenced vectors, which cleanup removes.
      if (previous && previous.generation !== scope.generation) await store.deleteGeneration(previous.vectorTable, previous).catch(() => undefined);
    },
    async discard() {
      // Vectors first, then the pending row: a crash in between leaves a pending row of a dead owner.
      await store.deleteGeneration(table, scope).catch(() => undefined);
      try {
        ctx.chunks.dropPending(scope.generation);
      } catch {
        // The row then belongs to this (eventually gone) process and is reclaimed as abandoned.
      }
    },
  };
}

/** Chunks, embeds and indexes one strategy through the indexing pipeline. */
async function processStrategy(ctx: ServiceContext, document: StoredDocument, name: string, options: ProcessOptions): Promise<StrategyRunSummary> {
  const started = performance.now();
  const store = await ctx.vectors();
  const { searchable } = await runIndexing(
    ctx,
    {
      document,
      strategy: name,
      strategyOptions: options.strategyOptions?.[name],
      embedder: await ctx.embedder(),
      llm: await ctx.llm(),
      embedBatchSize: ctx.config.embedBatchSize,
      signal: options.signal,
      report: (message) => options.onProgress?.({ stage: name, message }),
    },
    async (plan) => generationSink(ctx, store, document, plan),
  );
  return {
    strategy: name,
    status: "completed",
    chunksProduced: searchable.length,
    tokens: tokenStats(searchable),
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * The checks a processing request passes before any work starts (known strategies, an
 * existing document): a background request runs them before its 202.
 */
export function checkProcessInput(ctx: ServiceContext, documentId: string, strategies: string | string[]): { names: string[]; document: StoredDocument } {
  return { names: parseStrategyList(ctx.strategies, strategies, ChunkingError), document: requireDocument(ctx, documentId) };
}

/**
 * Runs chunking strategies over a document. A strategy that fails is reported in
 * `strategiesFailed` while the others complete; cancellation stops the whole run.
 */
export async function processDocument(
  ctx: ServiceContext,
  documentId: string,
  strategies: string | string[],
  options: ProcessOptions = {},
): Promise<ProcessResult> {
  const { names, document } = checkProcessInput(ctx, documentId, strategies);
  const completed: StrategyRunSummary[] = [];
  const failed: StrategyFailure[] = [];
  for (const [i, name] of names.entries()) {
    throwIfCancelled(options.signal);
    options.onProgress?.({ stage: "process", message: `${name} (${i + 1}/${names.length})`, done: i, total: names.length });
    try {
      completed.push(await processStrategy(ctx, document, name, options));
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      // Deleted meanwhile (by this or another process): the whole run is over, with a clear reason.
      if (!ctx.documents.get(documentId)) throw new NotFoundError(`document ${documentId} was deleted while it was being processed`);
      failed.push({ strategy: name, error: describeError(error) });
    }
  }
  options.onProgress?.({ stage: "process", message: "done", done: names.length, total: names.length });
  return { documentId, strategiesCompleted: completed, strategiesFailed: failed };
}
