import type { RetrievedChunk } from "../domain/types.js";
import type { Embedder } from "../embedders/embedder.js";
import type { ChunksRepo, StrategyState } from "../domain/ports/chunks.js";
import { missingVectorsError, type VectorHit, type VectorStore } from "../stores/vectors/vector-store.js";
import { keywordSearch } from "./bm25.js";
import { reciprocalRankFusion } from "./fusion.js";
import type { SearchMode } from "../domain/variant-key.js";
import type { SearchPlan } from "../domain/default-search-mode.js";
import { rankingDepth } from "../domain/rank-metrics.js";

/** How many candidates each list of a hybrid or parent search gathers per wanted result. */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 20;

export interface Retrieval {
  chunks: RetrievedChunk[];
  embedSeconds: number;
  searchSeconds: number;
}

/**
 * Retrieves the top-k chunks of one processed strategy for a question with a search mode (the
 * caller's: domain/default-search-mode.ts unless a variant names one): `dense` vectors, `keyword`
 * BM25 over the strategy's chunks (bm25.ts), or `hybrid`, both fused by reciprocal rank, the dense
 * list weighted by the plan's `denseWeight` (a bare mode: an even share). A parent-child strategy
 * searches its children and answers with their parents (one entry per parent, best child's score).
 *
 * `states` are the strategy's states of one document, or of every document of a collection: the
 * search then ranks all their chunks together, so the other documents compete as distractors
 * (dense scores are cosines of one embedder, comparable across documents; BM25 runs over the
 * union of their chunks, so term statistics are the collection's).
 *
 * `embedded`: the question's vector, when the caller embedded it already (a benchmark embeds its
 * questions once for every strategy): nothing is embedded here, and no embed time is reported.
 */
export async function retrieve(
  deps: { vectors: VectorStore; chunks: ChunksRepo; embedder: Embedder },
  states: StrategyState | StrategyState[],
  question: string,
  topK: number,
  signal: AbortSignal | undefined,
  search: SearchMode | SearchPlan,
  embedded?: Float32Array,
): Promise<Retrieval> {
  const { mode: searchMode, denseWeight } = typeof search === "string" ? { mode: search, denseWeight: 0.5 } : search;
  const scopes = Array.isArray(states) ? states : [states];
  const first = scopes[0]!;
  const embedStart = performance.now();
  // Keyword search needs no query vector: nothing is embedded, and no embed time is reported.
  const embedHere = searchMode !== "keyword" && !embedded;
  const queryVector = searchMode === "keyword" ? null : (embedded ?? (await deps.embedder.embed([question], signal))[0]!);
  const searchStart = performance.now();
  const parents = first.retrieval === "parent";
  // Gathered for the benchmark's ranking depth whatever the k, so that a top-k is always the first k
  // of the deeper ranking a benchmark scores at every cut (Recall@k, MRR@k, nDCG@k), and `ask` answers from it.
  const candidates = Math.max(MIN_CANDIDATES, rankingDepth(topK) * CANDIDATES_PER_RESULT);
  // Parents are deduplicated after the search, so it gathers more than top-k children.
  const wanted = parents || searchMode === "hybrid" ? candidates : topK;
  const searchableChunks = async (state: StrategyState) => (await deps.chunks.current(state.documentId, state.strategy)).filter((c) => c.role === "chunk");
  const dense = async () => {
    const found = await deps.vectors.search(first.vectorSpace, queryVector!, scopes, wanted);
    // A committed strategy with chunks has their vectors; finding none means they were lost (a
    // store shared or edited by hand), and answering from nothing would score the strategy 0 silently.
    // Unless the generation was replaced meanwhile (another process re-processed it): then its vectors went with it.
    // Both reads happen only when nothing was found, never on the search path.
    if (found.length > 0) return found;
    for (const state of scopes) {
      const lost = (await deps.chunks.state(state.documentId, state.strategy))?.generation === state.generation && (await searchableChunks(state)).length > 0;
      if (lost) throw missingVectorsError();
    }
    return found;
  };
  const keyword = async () =>
    keywordSearch(scopes.map((s) => s.generation).join("+"), async () => (await Promise.all(scopes.map(searchableChunks))).flat(), question, wanted);
  let hits: VectorHit[];
  if (searchMode === "hybrid") hits = reciprocalRankFusion(await Promise.all([dense(), keyword()]), [denseWeight, 1 - denseWeight]);
  else if (searchMode === "keyword") hits = await keyword();
  else hits = await dense();
  if (!parents) hits = hits.slice(0, topK);
  const byId = await deps.chunks.byIds(hits.map((h) => h.chunkId));
  let chunks: RetrievedChunk[] = hits.flatMap((hit) => {
    const c = byId.get(hit.chunkId);
    return c ? [{ chunkId: c.id, documentId: c.documentId, score: hit.score, text: c.text, parentId: c.parentId, start: c.start, end: c.end }] : [];
  });
  if (parents) {
    const byParentId = await deps.chunks.byIds(chunks.map((c) => c.parentId!).filter(Boolean));
    const seen = new Set<string>();
    chunks = chunks
      .filter((c) => c.parentId && !seen.has(c.parentId) && seen.add(c.parentId))
      .slice(0, topK)
      .map((c) => {
        const parent = byParentId.get(c.parentId!)!;
        return { ...c, text: parent.text, start: parent.start, end: parent.end };
      });
  }
  const end = performance.now();
  return { chunks, embedSeconds: embedHere ? (searchStart - embedStart) / 1000 : 0, searchSeconds: (end - searchStart) / 1000 };
}
