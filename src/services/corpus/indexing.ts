import { indexedText } from "../../text/indexed-text.js";
import { ChunkevalError, ChunkingError, IndexFailedError, throwIfCancelled } from "../../errors.js";
import { chunkOffThread } from "../../strategies/offload.js";
import { newId } from "../../domain/ids.js";
import { mapWithConcurrency } from "../../domain/concurrency.js";
import type { Chunk, StoredDocument } from "../../domain/types.js";
import type { CachedEmbedder } from "../../embedders/cache.js";
import type { ChunkCeiling, ChunkDraft, ChunkingLlm, ChunkingStrategy } from "../../strategies/strategy.js";
import type { ServiceContext } from "../context.js";

/**
 * The one indexing pipeline: chunk → contextualise → embed → write vectors → commit. It serves
 * `process` (and through it `bench`) and /v1 ingestion; what differs between them is only where
 * the vectors go and what "commit" means, which the caller's IndexSink says.
 */

/** A searchable chunk ready to be written: its indexed text (context included) and vector. */
export interface IndexedChunk {
  chunk: Chunk;
  text: string;
  vector: Float32Array;
}

/** What the sink is told before any vector is written. */
export interface IndexPlan {
  /** A fresh id: the chunks' ids derive from it, and vector rows are tagged with it. */
  generation: string;
  strategy: ChunkingStrategy;
  /** Every chunk, parents included, in position order. */
  chunks: Chunk[];
  embedder: string;
  dimension: number;
}

/**
 * Where one pipeline run's vectors go. `write` stores them where readers cannot see them yet,
 * `commit` makes them current in one step, `discard` removes whatever `write` stored (it is
 * called on every failure after the sink was opened, and must not throw).
 */
export interface IndexSink<R> {
  write(chunks: IndexedChunk[]): Promise<void>;
  commit(): Promise<R>;
  discard(): Promise<void>;
}

export interface IndexingInput {
  document: StoredDocument;
  strategy: string;
  /** Option overrides on top of the configuration's for this strategy. */
  strategyOptions?: Record<string, unknown>;
  embedder: CachedEmbedder;
  /** The LLM that writes chunk contexts (contextual_retrieval); without one, contexts come from the document. */
  llm?: ChunkingLlm;
  /** Texts per embedding call: cancellation and deadlines are checked between calls. */
  embedBatchSize: number;
  /** Embedding calls in flight at once. */
  embedConcurrency?: number;
  /** Refuse documents that yield more searchable chunks than this (the setting that says so named in the error). */
  maxChunks?: ChunkCeiling;
  signal?: AbortSignal;
  /** What the pipeline is doing; while it embeds, with the count of chunks embedded so far. */
  report?: (message: string, embedded?: { done: number; total: number }) => void;
}

export interface IndexingOutcome<R> {
  committed: R;
  strategy: ChunkingStrategy;
  generation: string;
  /** The searchable chunks (parents excluded) that were indexed. */
  searchable: Chunk[];
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

/** While a document's chunks are embedded, their count is reported at most this often (a book takes minutes). */
const EMBED_REPORT_INTERVAL_MS = 1000;

/**
 * Embeds texts in batches with at most `concurrency` calls in flight, checking `signal` before
 * each call; `embedded` hears how many are done, at most once a second, and the total at the end if it heard any.
 */
async function embedInBatches(
  embedder: CachedEmbedder,
  texts: string[],
  batchSize: number,
  concurrency: number,
  signal: AbortSignal | undefined,
  embedded: (done: number) => void,
): Promise<Float32Array[]> {
  const size = Math.max(1, batchSize);
  const starts = Array.from({ length: Math.ceil(texts.length / size) }, (_, i) => i * size);
  let done = 0;
  let reported = performance.now();
  let counted = false;
  const batches = await mapWithConcurrency(
    starts,
    concurrency,
    async (start) => {
      const vectors = await embedder.embed(texts.slice(start, start + size), signal);
      done += vectors.length;
      if (done < texts.length && performance.now() - reported >= EMBED_REPORT_INTERVAL_MS) {
        reported = performance.now();
        counted = true;
        embedded(done);
      }
      return vectors;
    },
    () => throwIfCancelled(signal),
  );
  // A count that was reported ends: the step is over (and its time left no longer said).
  if (counted) embedded(texts.length);
  return batches.flat();
}

/** Runs the pipeline over one document with one strategy and commits through `openSink`'s sink. */
export async function runIndexing<R>(
  ctx: ServiceContext,
  input: IndexingInput,
  openSink: (plan: IndexPlan) => Promise<IndexSink<R>>,
): Promise<IndexingOutcome<R>> {
  const { document, embedder, signal } = input;
  const report = input.report ?? (() => undefined);
  const strategy = await ctx.strategies.get(input.strategy).create({ ...ctx.config.strategyOptions[input.strategy], ...input.strategyOptions });
  report("chunking");
  const drafts = await chunkOffThread(
    strategy,
    {
      document,
      embed: (texts, s) => embedder.embed(texts, s),
      llm: input.llm,
      signal,
      maxChunks: input.maxChunks,
      keepPageFurniture: ctx.config.keepPageFurniture,
    },
    { timeoutSeconds: ctx.config.chunkTimeoutSeconds },
  );
  if (drafts.length === 0) throw new ChunkingError(`${input.strategy} produced no chunks`);
  const generation = newId("gen");
  const chunks = toChunks(drafts, generation);
  // Past input.maxChunks the chunking worker has refused the document already.
  const searchable = chunks.filter((c) => c.role === "chunk");
  report(`embedding ${searchable.length} chunks`);
  const texts = searchable.map(indexedText);
  const vectors = await embedInBatches(embedder, texts, input.embedBatchSize, input.embedConcurrency ?? 1, signal, (done) =>
    report(`embedding ${searchable.length} chunks`, { done, total: searchable.length }),
  );
  throwIfCancelled(signal);
  const sink = await openSink({ generation, strategy, chunks, embedder: embedder.name, dimension: vectors[0]!.length });
  let step = "writing vectors to the vector store";
  try {
    report("indexing");
    await sink.write(searchable.map((chunk, i) => ({ chunk, text: texts[i]!, vector: vectors[i]! })));
    throwIfCancelled(signal);
    step = "committing the new chunks";
    return { committed: await sink.commit(), strategy, generation, searchable };
  } catch (error) {
    // The new vectors never became current: remove them; whatever was current stays so.
    await sink.discard();
    // A store's own message can carry file paths and source locations: name the step instead.
    throw error instanceof ChunkevalError ? error : new IndexFailedError(`indexing failed while ${step}`, { cause: error });
  }
}
