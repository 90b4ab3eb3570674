import type { RetrievedChunk } from "../domain/types.js";
import type { Embedder } from "../embedders/embedder.js";
import type { ChunksRepo, StrategyState } from "../stores/sqlite/chunks-repo.js";
import type { VectorHit, VectorStore } from "../stores/vectors/vector-store.js";
import { reciprocalRankFusion } from "./fusion.js";
import { fullTextQuery } from "../stores/vectors/sql.js";

/** How many candidates each list of a hybrid or parent search gathers per wanted result. */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 20;

export interface Retrieval {
  chunks: RetrievedChunk[];
  embedSeconds: number;
  searchSeconds: number;
}

/**
 * Retrieves the top-k chunks of one processed strategy for a question, the way that strategy
 * is meant to be searched: dense, hybrid (dense + BM25 by reciprocal rank fusion), or dense
 * over children answered with their parents (one entry per parent, best child's score).
 */
export async function retrieve(
  deps: { vectors: VectorStore; chunks: ChunksRepo; embedder: Embedder },
  state: StrategyState,
  question: string,
  topK: number,
  signal?: AbortSignal,
): Promise<Retrieval> {
  const embedStart = performance.now();
  const [queryVector] = await deps.embedder.embed([question], signal);
  const searchStart = performance.now();
  const candidates = Math.max(MIN_CANDIDATES, topK * CANDIDATES_PER_RESULT);
  let hits: VectorHit[];
  if (state.retrieval === "hybrid") {
    const [dense, keyword] = await Promise.all([
      deps.vectors.search(state.vectorTable, queryVector!, state, candidates),
      deps.vectors.keywordSearch(state.vectorTable, fullTextQuery(question), state, candidates),
    ]);
    hits = reciprocalRankFusion([dense, keyword]).slice(0, topK);
  } else if (state.retrieval === "parent") {
    hits = await deps.vectors.search(state.vectorTable, queryVector!, state, candidates);
  } else {
    hits = await deps.vectors.search(state.vectorTable, queryVector!, state, topK);
  }
  const byId = deps.chunks.byIds(hits.map((h) => h.chunkId));
  let chunks: RetrievedChunk[] = hits.flatMap((hit) => {
    const c = byId.get(hit.chunkId);
    return c ? [{ chunkId: c.id, score: hit.score, text: c.text, parentId: c.parentId, start: c.start, end: c.end }] : [];
  });
  if (state.retrieval === "parent") {
    const parents = deps.chunks.byIds(chunks.map((c) => c.parentId!).filter(Boolean));
    const seen = new Set<string>();
    chunks = chunks
      .filter((c) => c.parentId && !seen.has(c.parentId) && seen.add(c.parentId))
      .slice(0, topK)
      .map((c) => {
        const parent = parents.get(c.parentId!)!;
        return { ...c, text: parent.text, start: parent.start, end: parent.end };
      });
  }
  const end = performance.now();
  return { chunks, embedSeconds: (searchStart - embedStart) / 1000, searchSeconds: (end - searchStart) / 1000 };
}
