// A benchmark's second stage: every variant's index built, or reused when it is current, in every
// document, as processing units run in this process or by queue workers.
import { BenchmarkError } from "../../errors.js";
import type { StrategyIndexing } from "../../domain/experiment.js";
import { addUsage, ZERO_USAGE } from "../../domain/metrics.js";
import type { RunOptions, StoredDocument, TokenUsage } from "../../domain/types.js";
import { costOf } from "../../generators/pricing.js";
import type { ServiceContext } from "../context.js";
import { inProcessUnits, UnitFailure, type ProcessingUnit, type ProcessingUnits } from "./processing-units.js";
import { embedderOf, type StrategyVariant } from "../corpus/variants.js";
import { distinctIndexes, isIndexCurrent } from "./cost-model.js";
import { mapWithConcurrency } from "../../domain/concurrency.js";
import type { CachedEmbedder } from "../../embedders/cache.js";
import type { BenchInput } from "./bench-input.js";
import type { BenchPlan } from "./bench-plan.js";

/** Indexing figures of one strategy, with the LLM usage its contextualisation spent in this run. */
export type IndexingRun = StrategyIndexing & { contextUsage: TokenUsage };

/**
 * Processes, for every document, the variants whose index is missing or was made with other
 * options or another embedder: each such (document, variant) pair is a unit `units` runs (in
 * this process, or as queue jobs other workers share). Each unit is metered on its own, so a
 * variant's cost is what it spent, whatever runs beside it; its figures add up over the documents.
 */
export async function ensureProcessed(
  ctx: ServiceContext,
  documents: StoredDocument[],
  variants: StrategyVariant[],
  embedderFor: (variant: StrategyVariant) => CachedEmbedder,
  options: RunOptions,
  units: ProcessingUnits,
): Promise<IndexingRun[]> {
  const indexes = distinctIndexes(variants);
  const pending: ProcessingUnit[] = [];
  for (const variant of indexes)
    for (const [n, document] of documents.entries()) {
      if (await isIndexCurrent(ctx, document, variant)) continue;
      pending.push({ document, variant, ...(documents.length > 1 ? { label: `document ${n + 1} of ${documents.length} (${document.filename})` } : {}) });
    }
  const outcomes = await units.run(pending, embedderFor, options).catch((error: unknown) => {
    if (!(error instanceof UnitFailure)) throw error;
    const unit = pending[error.index]!;
    const where = documents.length > 1 ? ` for ${unit.document.filename}` : "";
    throw new BenchmarkError(`processing ${unit.variant.indexKey}${where} failed: ${error.reason}`);
  });
  return mapWithConcurrency(indexes, 1, async (variant): Promise<IndexingRun> => {
    const own = outcomes.filter((_, i) => pending[i]!.variant === variant);
    const tokenSizes: number[] = [];
    for (const document of documents)
      for (const c of await ctx.chunks.current(document.id, variant.indexKey)) if (c.role === "chunk") tokenSizes.push(c.tokenCount);
    const contextUsage = own.reduce((u, o) => addUsage(u, o.contextUsage), ZERO_USAGE);
    const embeddedTokens = own.reduce((n, o) => n + o.embedded.computedTokens, 0);
    return {
      strategy: variant.indexKey,
      chunks: tokenSizes.length,
      seconds: own.reduce((n, o) => n + o.seconds, 0),
      embeddedTokens,
      costUsd:
        costOf(embedderFor(variant).name, { promptTokens: embeddedTokens, completionTokens: 0, totalTokens: embeddedTokens }) +
        costOf(ctx.config.generator, contextUsage),
      tokenSizes,
      reused: own.length === 0,
      contextTokens: contextUsage.totalTokens,
      contextUsage,
    };
  });
}

/** Stage 2: every variant's index built (or reused) in every document, timed. */
export async function indexVariants(plan: BenchPlan, input: BenchInput): Promise<{ indexing: IndexingRun[]; seconds: number }> {
  const started = performance.now();
  // Imported chunks exist only in this run's input (and its strategy registry): no other process could build them.
  const units = input.units && !input.chunks?.length ? input.units : inProcessUnits(plan.ctx);
  const embedderFor = (variant: StrategyVariant) => plan.embedders.get(embedderOf(plan.ctx, variant))!;
  const indexing = await ensureProcessed(plan.ctx, plan.corpus.documents, plan.variants, embedderFor, input, units);
  return { indexing, seconds: (performance.now() - started) / 1000 };
}
