import { CancelledError, describeError, LlmCallLimitError, throwIfCancelled, ValidationError } from "../../errors.js";
import { addUsage, ZERO_USAGE } from "../../domain/metrics.js";
import { mapWithConcurrency } from "../../domain/concurrency.js";
import type { RunOptions, StoredDocument, TokenUsage } from "../../domain/types.js";
import { ChildJobFailed, type ChildJobs, type JobRequest } from "../../domain/ports/job-queue.js";
import type { CachedEmbedder, EmbeddingStats } from "../../embedders/cache.js";
import type { ChunkingLlm } from "../../strategies/strategy.js";
import type { ServiceContext } from "../context.js";
import { requireDocument } from "../corpus/documents.js";
import { processVariant, PROCESS_CONCURRENCY } from "../corpus/process.js";
import { embedderOf, type StrategyVariant } from "../corpus/variants.js";

/** One (document, variant) pair whose index a benchmark needs (re)built. */
export interface ProcessingUnit {
  document: StoredDocument;
  variant: StrategyVariant;
  /** Where the document stands in a collection ("document 3 of 8 (book.pdf)"), said in its progress. */
  label?: string;
}

/** What one unit spent, so that the benchmark's per-strategy figures add up wherever it ran. */
export interface UnitOutcome {
  seconds: number;
  embedded: EmbeddingStats;
  contextUsage: TokenUsage;
}

/**
 * Where a benchmark's processing units run: in this process (SQLite, the CLI, a synchronous
 * request), or as jobs of the shared PostgreSQL queue that any worker claims (a background
 * benchmark there). Either way every unit's embeddings are counted in `embedderFor(variant)` (the
 * run's metered embedder of that variant's embedder), and the first failure rejects with an error
 * naming document and variant.
 */
export interface ProcessingUnits {
  run(units: ProcessingUnit[], embedderFor: (variant: StrategyVariant) => CachedEmbedder, options: RunOptions): Promise<UnitOutcome[]>;
}

/** The configured LLM (if any) wrapped to count the tokens one unit's contextualisation spends. */
async function meteredLlm(ctx: ServiceContext): Promise<{ llm: ChunkingLlm | undefined; usage: () => TokenUsage }> {
  const plain = await ctx.llm();
  if (!plain) return { llm: undefined, usage: () => ZERO_USAGE };
  const complete = await ctx.completer(ctx.config.generator);
  let usage = ZERO_USAGE;
  const llm: ChunkingLlm = {
    name: plain.name,
    async complete(prompt, signal) {
      const result = await complete(prompt, signal);
      usage = addUsage(usage, result.usage);
      return result.text;
    },
  };
  return { llm, usage: () => usage };
}

/** Processes one unit with its own meters (views of `embedder`, so the run's counts include it). */
export async function processUnit(ctx: ServiceContext, unit: ProcessingUnit, embedder: CachedEmbedder, options: RunOptions): Promise<UnitOutcome> {
  const meter = embedder.metered();
  const llm = await meteredLlm(ctx);
  const { onProgress } = options;
  const summary = await processVariant(ctx, unit.document, unit.variant, {
    embedder: meter,
    llm: llm.llm,
    signal: options.signal,
    onProgress: onProgress && unit.label ? (e) => onProgress({ ...e, message: `${unit.label}: ${e.message}` }) : onProgress,
  });
  return { seconds: summary.seconds, embedded: { ...meter.stats }, contextUsage: llm.usage() };
}

/**
 * A unit (or child job) that failed: which one, by position, and its error as recorded. The
 * benchmark turns it into its own error, naming document and variant.
 */
export class UnitFailure extends Error {
  constructor(
    readonly index: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Units run in this process, as benchmarks always ran them: independent variants side by side,
 * each variant's documents one after the other.
 */
export function inProcessUnits(ctx: ServiceContext): ProcessingUnits {
  return {
    async run(units, embedderFor, options) {
      const byVariant = new Map<string, number[]>();
      units.forEach((u, i) => byVariant.set(u.variant.indexKey, [...(byVariant.get(u.variant.indexKey) ?? []), i]));
      const outcomes: UnitOutcome[] = new Array(units.length);
      // The run's count of indexes built, with no strategy: its pace gives the time left (lines mode's ETA).
      let built = 0;
      const count = () => options.onProgress?.({ stage: "index", message: `${built}/${units.length} indexes built`, done: built, total: units.length });
      if (units.length > 1) count();
      await mapWithConcurrency(
        [...byVariant.values()],
        PROCESS_CONCURRENCY,
        async (indices) => {
          for (const i of indices) {
            throwIfCancelled(options.signal);
            try {
              outcomes[i] = await processUnit(ctx, units[i]!, embedderFor(units[i]!.variant), options);
              built++;
              if (units.length > 1) count();
            } catch (error) {
              // Cancelled, or out of the request's chat calls: the whole run stops with it, as it is.
              if (error instanceof CancelledError || error instanceof LlmCallLimitError) throw error;
              throw new UnitFailure(i, describeError(error));
            }
          }
        },
        () => throwIfCancelled(options.signal),
      );
      return outcomes;
    },
  };
}

/** What a `process_unit` job stores: the unit, and the embedder (the variant's) and generator of the benchmark that queued it. */
export interface ProcessUnitInput {
  documentId: string;
  variant: StrategyVariant;
  embedder: string;
  generator: string;
}

/**
 * Runs a `process_unit` job in whichever process claimed it, and says which process that was.
 * The variant travels resolved (its options as the benchmark's process planned them), so the
 * worker's configuration cannot change what is built; the contextualising LLM is the worker's
 * configured generator, refused when it is not the benchmark's (its chunks and cost would differ).
 */
export async function runQueuedUnit(ctx: ServiceContext, input: ProcessUnitInput, options: RunOptions): Promise<UnitOutcome & { ranBy: string }> {
  if (input.generator !== ctx.config.generator)
    throw new ValidationError(`this worker's generator is ${ctx.config.generator}, the benchmark's ${input.generator}: configure the workers alike`);
  const document = await requireDocument(ctx, input.documentId);
  const outcome = await processUnit(ctx, { document, variant: input.variant }, await ctx.embedder(input.embedder), options);
  // Which process ran it, for `GET /jobs` (a finished job's lease no longer says).
  return { ...outcome, ranBy: `${ctx.owner.host}:${ctx.owner.pid}` };
}

/**
 * Units as `process_unit` jobs of the shared queue, children of the benchmark job that runs
 * them: idle workers claim them, and so does the benchmark's own process while it waits.
 */
export function queuedUnits(ctx: ServiceContext, children: ChildJobs): ProcessingUnits {
  return {
    async run(units, embedderFor, options) {
      const requests = units.map((u): JobRequest => ({
        jobType: "process_unit",
        params: { document_id: u.document.id, document_name: u.document.filename, strategy: u.variant.indexKey },
        input: {
          documentId: u.document.id,
          variant: u.variant,
          embedder: embedderOf(ctx, u.variant),
          generator: ctx.config.generator,
        } satisfies ProcessUnitInput,
      }));
      const outcomes = (await children.run(requests, { signal: options.signal, concurrency: PROCESS_CONCURRENCY }).catch((error: unknown) => {
        throw error instanceof ChildJobFailed ? new UnitFailure(error.index, error.reason) : error;
      })) as UnitOutcome[];
      // Units run elsewhere embedded for this run too: counted in the run's embedder as if here.
      outcomes.forEach((o, i) => embedderFor(units[i]!.variant).record(o.embedded));
      return outcomes;
    },
  };
}
