import { listWords as list } from "./list-words.js";
import type { SearchMode } from "./variant-key.js";

/**
 * The verdict note for a run whose rows were searched in different retrieval modes and whose
 * context relevance was therefore scored by different evidence per mode: the offline judge scores
 * dense rows by lexical evidence and keyword rows by the embedder (whichever the retriever did not
 * rank by), each on its own scale, in one `context_relevance` column. Null when every row was
 * scored by the same evidence (one mode, or a judge that reads every context the same way).
 */
export function contextJudgeNote(search: Record<string, { retrieval: SearchMode }>, judgedBy: (mode: SearchMode) => string | null): string | null {
  const retrievalModes = Object.fromEntries(Object.entries(search).map(([s, x]) => [s, x.retrieval]));
  const modes = [...new Set(Object.values(retrievalModes))];
  const judges = new Map(modes.map((m) => [m, judgedBy(m)]));
  if (new Set(judges.values()).size < 2) return null;
  const rows = (mode: SearchMode) => list(Object.keys(retrievalModes).filter((s) => retrievalModes[s] === mode));
  const parts = modes.map((m) => `${m} rows (${rows(m)}) ${judges.get(m) === null ? "are not scored" : `by ${judges.get(m)}`}`);
  return (
    `Context relevance is scored by different evidence per retrieval mode: ${parts.join("; ")}. ` +
    "Compare context relevance within a retrieval mode, not across modes."
  );
}
