import type { ChunkMapDocument, ChunkMapSource } from "../../reports/chunk-map.js";
import type { ServiceContext } from "../context.js";
import { getExperiment } from "./experiments.js";
import { indexKeyOf } from "../../domain/variant-key.js";
import { pageSpans } from "../../domain/pages.js";

/**
 * The document text and current chunks of each strategy of an experiment, for the technical
 * report's chunk map: the experiment's document, or each document of its collection still
 * stored; null when none is. Strategies re-processed after the experiment are drawn as they are
 * now, and the note says so.
 */
export async function chunkMapSource(ctx: ServiceContext, experimentId: string): Promise<ChunkMapSource | null> {
  const experiment = await getExperiment(ctx, experimentId);
  const members = experiment.collection?.documents ?? [{ id: experiment.documentId, filename: "" }];
  const documents: ChunkMapDocument[] = [];
  const changed = new Set<string>();
  for (const member of members) {
    const document = await ctx.documents.get(member.id);
    if (!document) continue;
    const chunks: ChunkMapDocument["chunks"] = {};
    for (const strategy of experiment.strategiesUsed) {
      // Variants that differ only at search time (retrieval, top_k) draw the chunks they share.
      const stored = indexKeyOf(strategy);
      const state = await ctx.chunks.state(document.id, stored);
      if (state && state.processedAt > experiment.createdAt) changed.add(strategy);
      chunks[strategy] = (await ctx.chunks.current(document.id, stored)).map((c) => ({ start: c.start, end: c.end, role: c.role }));
    }
    documents.push({
      ...(experiment.collection ? { document: { id: member.id, filename: member.filename } } : {}),
      text: document.text,
      chunks,
      pages: pageSpans(document.blocks),
    });
  }
  if (documents.length === 0) return null;
  const names = [...changed];
  const note =
    names.length > 0
      ? `${names.join(", ")} ${names.length > 1 ? "were" : "was"} processed again after this experiment; ` +
        "the map shows the current chunks, the drill-down the ones the experiment retrieved."
      : null;
  return { documents, note };
}
