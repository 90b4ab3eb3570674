import type { ChunkMapSource } from "../reports/chunk-map.js";
import type { ServiceContext } from "./context.js";
import { getExperiment } from "./experiments.js";
import { indexKeyOf } from "../domain/variant-key.js";
import { pageSpans } from "../domain/pages.js";

/**
 * The document text and current chunks of each strategy of an experiment, for the technical
 * report's chunk map; null when the document was deleted. Strategies re-processed after the
 * experiment are drawn as they are now, and the note says so.
 */
export async function chunkMapSource(ctx: ServiceContext, experimentId: string): Promise<ChunkMapSource | null> {
  const experiment = await getExperiment(ctx, experimentId);
  const document = await ctx.documents.get(experiment.documentId);
  if (!document) return null;
  const chunks: ChunkMapSource["chunks"] = {};
  const changed: string[] = [];
  for (const strategy of experiment.strategiesUsed) {
    // Variants that differ only at search time (retrieval, top_k) draw the chunks they share.
    const stored = indexKeyOf(strategy);
    const state = await ctx.chunks.state(document.id, stored);
    if (state && state.processedAt > experiment.createdAt) changed.push(strategy);
    chunks[strategy] = (await ctx.chunks.current(document.id, stored)).map((c) => ({ start: c.start, end: c.end, role: c.role }));
  }
  const note =
    changed.length > 0
      ? `${changed.join(", ")} ${changed.length > 1 ? "were" : "was"} processed again after this experiment; ` +
        "the map shows the current chunks, the drill-down the ones the experiment retrieved."
      : null;
  return { text: document.text, chunks, note, pages: pageSpans(document.blocks) };
}
