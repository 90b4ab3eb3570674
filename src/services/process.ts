import { CancelledError, ChunkingError, describeError, throwIfCancelled } from "../errors.js";
import { newId, nowTimestamp } from "../domain/ids.js";
import type { Chunk, ProcessResult, RunOptions, StoredDocument, StrategyFailure, StrategyRunSummary } from "../domain/types.js";
import { parseStrategyList } from "../strategies/registry.js";
import type { ChunkDraft } from "../strategies/strategy.js";
import { vectorTableName } from "../stores/vectors/vector-store.js";
import type { ServiceContext } from "./context.js";
import { requireDocument } from "./documents.js";

export interface ProcessOptions extends RunOptions {
  /** Per-strategy option overrides on top of the configuration's. */
  strategyOptions?: Record<string, Record<string, unknown>>;
}

/** The text that is embedded and keyword-indexed for a chunk: its context first, if it has one. */
export function indexedText(chunk: { text: string; context: string | null }): string {
  return chunk.context ? `${chunk.context}\n\n${chunk.text}` : chunk.text;
}

function toChunks(drafts: ChunkDraft[], generation: string): Chunk[] {
  const ids = drafts.map((_, i) => `chk_${generation.slice(4)}_${i}`);
  return drafts.map((d, i) => ({
    id: ids[i]!,
    position: i,
    text: d.text,
    start: d.start,
    end: d.end,
    tokenCount: d.tokenCount,
    parentId: d.parentIndex === null ? null : ids[d.parentIndex]!,
    context: d.context,
    role: d.role,
  }));
}

function tokenStats(chunks: Chunk[]): StrategyRunSummary["tokens"] {
  const sizes = chunks.map((c) => c.tokenCount);
  if (sizes.length === 0) return { mean: 0, min: 0, max: 0 };
  return { mean: sizes.reduce((a, b) => a + b, 0) / sizes.length, min: Math.min(...sizes), max: Math.max(...sizes) };
}

/**
 * Chunks, embeds and indexes one strategy, replacing its previous generation only once the
 * new one is complete (write order: ../stores/README.md).
 */
async function processStrategy(
  ctx: ServiceContext,
  document: StoredDocument,
  name: string,
  options: ProcessOptions,
): Promise<StrategyRunSummary> {
  const started = performance.now();
  const report = (message: string) => options.onProgress?.({ stage: name, message });
  const strategy = await ctx.strategies.get(name).create({
    ...ctx.config.strategyOptions[name],
    ...options.strategyOptions?.[name],
  });
  const embedder = await ctx.embedder();
  report("chunking");
  const drafts = await strategy.chunk({
    document,
    embed: (texts, signal) => embedder.embed(texts, signal),
    llm: await ctx.llm(),
    signal: options.signal,
  });
  if (drafts.length === 0) throw new ChunkingError(`${name} produced no chunks`);
  const generation = newId("gen");
  const chunks = toChunks(drafts, generation);
  const searchable = chunks.filter((c) => c.role === "chunk");
  report(`embedding ${searchable.length} chunks`);
  const vectors = await embedder.embed(searchable.map(indexedText), options.signal);
  const table = vectorTableName(embedder.name, vectors[0]!.length);
  const store = await ctx.vectors();
  const scope = { documentId: document.id, strategy: name, generation };
  try {
    report("indexing");
    await store.add(
      table,
      searchable.map((c, i) => ({ ...scope, chunkId: c.id, text: indexedText(c), vector: vectors[i]! })),
    );
    throwIfCancelled(options.signal);
    const previous = ctx.chunks.state(document.id, name);
    ctx.chunks.commitGeneration(
      {
        documentId: document.id,
        strategy: name,
        generation,
        options: strategy.options,
        embedder: embedder.name,
        vectorTable: table,
        retrieval: strategy.retrieval,
        chunkCount: searchable.length,
        processedAt: nowTimestamp(),
      },
      chunks,
    );
    if (previous) await store.deleteGeneration(previous.vectorTable, previous);
  } catch (error) {
    // The new generation never became current: drop its vectors, keep the previous one.
    await store.deleteGeneration(table, scope).catch(() => undefined);
    throw error;
  }
  return {
    strategy: name,
    status: "completed",
    chunksProduced: searchable.length,
    tokens: tokenStats(searchable),
    seconds: (performance.now() - started) / 1000,
  };
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
  const names = parseStrategyList(ctx.strategies, strategies, ChunkingError);
  const document = requireDocument(ctx, documentId);
  const completed: StrategyRunSummary[] = [];
  const failed: StrategyFailure[] = [];
  for (const [i, name] of names.entries()) {
    throwIfCancelled(options.signal);
    options.onProgress?.({ stage: "process", message: `${name} (${i + 1}/${names.length})`, done: i, total: names.length });
    try {
      completed.push(await processStrategy(ctx, document, name, options));
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      failed.push({ strategy: name, error: describeError(error) });
    }
  }
  options.onProgress?.({ stage: "process", message: "done", done: names.length, total: names.length });
  return { documentId, strategiesCompleted: completed, strategiesFailed: failed };
}
