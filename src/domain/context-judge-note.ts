import { listWords as list } from "./list-words.js";
import type { SearchMode } from "./variant-key.js";

/**
 * The verdict note for a run whose rows were searched in different retrieval modes (or with
 * different embedders) and whose context relevance was therefore scored by different evidence:
 * the offline judge scores rows ranked by embeddings by lexical evidence and rows ranked by words
 * by the embedder (whichever the retriever did not rank by), each on its own scale, in one
 * `context_relevance` column. Null when every row was scored by the same evidence (one mode, or a
 * judge that reads every context the same way).
 */
export function contextJudgeNote(
  search: Record<string, { retrieval: SearchMode; embedder?: string }>,
  judgedBy: (mode: SearchMode, embedder?: string) => string | null,
): string | null {
  const rows = Object.entries(search);
  const withEmbedders = rows.some(([, x]) => x.embedder !== undefined);
  // Rows are grouped by how they were searched: the mode, and the embedder where a variant named one.
  const groupOf = (x: { retrieval: SearchMode; embedder?: string }) => (withEmbedders && x.embedder ? `${x.retrieval} (${x.embedder})` : x.retrieval);
  const groups = new Map<string, { judge: string | null; rows: string[] }>();
  for (const [variant, x] of rows) {
    const group = groupOf(x);
    const found = groups.get(group) ?? { judge: judgedBy(x.retrieval, x.embedder), rows: [] };
    found.rows.push(variant);
    groups.set(group, found);
  }
  if (new Set([...groups.values()].map((g) => g.judge)).size < 2) return null;
  const parts = [...groups].map(([group, g]) => `${group} rows (${list(g.rows)}) ${g.judge === null ? "are not scored" : `by ${g.judge}`}`);
  return (
    `Context relevance is scored by different evidence per retrieval mode: ${parts.join("; ")}. ` +
    "Compare context relevance within a retrieval mode, not across modes."
  );
}
