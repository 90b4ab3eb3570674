import { SEARCH_MODES, type SearchMode } from "./variant-key.js";

/** The `retrieval` setting's values: a search mode for every strategy, or `auto` (the embedder's own, below). */
export const RETRIEVAL_SETTINGS = ["auto", ...SEARCH_MODES] as const;
export type RetrievalSetting = (typeof RETRIEVAL_SETTINGS)[number];

/**
 * Embedders searched by keyword alone under `retrieval: auto`, with why (docs/benchmarks.md "Retrieval").
 * `use`: measured with `npm run bench:retrieval` on two public benchmarks (Chroma's five corpora
 * with generated questions, COVID-QA's dev half with questions written by experts), BM25 alone
 * retrieved more of the references than dense search with this embedder, and than both fused,
 * for every strategy measured. `hash` is word overlap: BM25 is the better model of the same evidence.
 */
const KEYWORD_EMBEDDERS = new Set(["use", "hash"]);

/**
 * How every strategy is searched unless a variant says otherwise (`@retrieval=`): one mode for all
 * of them, so that a benchmark compares chunking, not retrievers. `auto` picks by embedder: keyword
 * for the bundled ones (above), hybrid (dense and BM25 fused) for a model the user configured.
 */
export function defaultSearchMode(config: { retrieval: string; embedder: string }): SearchMode {
  if (config.retrieval !== "auto") return config.retrieval as SearchMode;
  return KEYWORD_EMBEDDERS.has(config.embedder) ? "keyword" : "hybrid";
}

/**
 * The dense list's share of a hybrid search's fusion (0-1; the keyword list has the rest), by the
 * `hybrid_dense_weight` setting: a number, or `auto`: an even share (plain reciprocal rank fusion)
 * except for embedders measured weaker than BM25 (DENSE_WEIGHT_BY_EMBEDDER), whose vectors then
 * break BM25's near-ties instead of outvoting it.
 */
export function hybridDenseWeight(config: { hybridDenseWeight: string; embedder: string }): number {
  if (config.hybridDenseWeight !== "auto") return Number(config.hybridDenseWeight);
  return DENSE_WEIGHT_BY_EMBEDDER.get(config.embedder) ?? 0.5;
}

/** Measured with `npm run bench:retrieval` (docs/benchmarks.md "Retrieval": what it was tuned on and checked on). */
const DENSE_WEIGHT_BY_EMBEDDER = new Map([
  ["use", 0.05],
  ["hash", 0.05],
]);

/** How a search is made: its mode and, for hybrid, the dense list's share of the fusion. */
export interface SearchPlan {
  mode: SearchMode;
  denseWeight: number;
}
