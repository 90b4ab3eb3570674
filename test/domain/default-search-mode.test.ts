// Issue 36 items 1-2: one search mode for every strategy, chosen per embedder unless configured,
// and a hybrid fusion that weights a weaker dense list down.
import { test } from "node:test";
import assert from "node:assert/strict";
import { defaultSearchMode, hybridDenseWeight } from "../../src/domain/default-search-mode.js";
import { variantSearchPlan } from "../../src/services/corpus/variants.js";
import { loadConfig } from "../../src/config/load.js";
import { reciprocalRankFusion } from "../../src/retrieval/fusion.js";

test("retrieval auto: keyword for the bundled embedders, hybrid for the user's own; a configured mode is every strategy's", () => {
  assert.equal(defaultSearchMode({ retrieval: "auto", embedder: "use" }), "keyword");
  assert.equal(defaultSearchMode({ retrieval: "auto", embedder: "hash" }), "keyword");
  assert.equal(defaultSearchMode({ retrieval: "auto", embedder: "openai:text-embedding-3-small" }), "hybrid");
  assert.equal(defaultSearchMode({ retrieval: "auto", embedder: "hf:Xenova/all-MiniLM-L6-v2" }), "hybrid");
  assert.equal(defaultSearchMode({ retrieval: "dense", embedder: "use" }), "dense");
  const { config } = loadConfig({ env: { CHUNKEVAL_EMBEDDER: "use" } });
  assert.equal(variantSearchPlan({ config }, { retrieval: null, embedder: null }).mode, "keyword");
  assert.equal(variantSearchPlan({ config }, { retrieval: "hybrid", embedder: null }).mode, "hybrid", "a variant's own mode wins");
  // A variant's own embedder does not change the run's one way (embedders are compared under one mode), only its hybrid share.
  const openai = variantSearchPlan({ config }, { retrieval: null, embedder: "openai:text-embedding-3-small" });
  assert.deepEqual(openai, { mode: "keyword", denseWeight: 0.5 });
  assert.ok(variantSearchPlan({ config }, { retrieval: "hybrid", embedder: null }).denseWeight < 0.5);
  assert.ok(hybridDenseWeight({ hybridDenseWeight: "auto", embedder: "use" }) < 0.5, "the bundled embedder's vectors weigh less than BM25");
  assert.equal(hybridDenseWeight({ hybridDenseWeight: "auto", embedder: "openai:text-embedding-3-large" }), 0.5);
  assert.equal(hybridDenseWeight({ hybridDenseWeight: "0.8", embedder: "use" }), 0.8);
});

test("the retrieval and hybrid_dense_weight settings refuse what they cannot mean", () => {
  assert.deepEqual(loadConfig({ env: { CHUNKEVAL_RETRIEVAL: "keyword", CHUNKEVAL_HYBRID_DENSE_WEIGHT: "0" } }).errors, []);
  assert.match(loadConfig({ env: { CHUNKEVAL_RETRIEVAL: "bm25" } }).errors.join(), /retrieval must be one of auto, dense, keyword, hybrid, not "bm25"/);
  for (const bad of ["1.5", "-0.1", " ", "half"]) {
    assert.match(loadConfig({ env: { CHUNKEVAL_HYBRID_DENSE_WEIGHT: bad } }).errors.join(), /hybrid_dense_weight must be auto or a number from 0 to 1/, bad);
  }
});

test("weighted rank fusion: equal weights are plain RRF; a small dense share breaks keyword's ties without outvoting it", () => {
  const hits = (...ids: string[]) => ids.map((chunkId, i) => ({ chunkId, score: 10 - i }));
  const keyword = hits("k1", "k2", "k3", "k4");
  const dense = hits("d1", "k4", "k3", "d2");
  const ids = (l: Array<{ chunkId: string }>) => l.map((h) => h.chunkId);
  // Plain RRF lifts k4 and k3 (in both lists) above keyword's top hit.
  assert.deepEqual(ids(reciprocalRankFusion([dense, keyword])), ids(reciprocalRankFusion([dense, keyword], [0.5, 0.5])));
  // At an even share a dense-only hit ranks with keyword's best; at a small share every keyword hit comes before it.
  assert.deepEqual(ids(reciprocalRankFusion([dense, keyword])), ["k4", "k3", "d1", "k1", "k2", "d2"]);
  assert.deepEqual(ids(reciprocalRankFusion([dense, keyword], [0.1, 0.9])).slice(4), ["d1", "d2"]);
  // Share 0 is keyword alone (dense-only hits at score 0 follow, never ahead); share 1 is dense alone.
  assert.deepEqual(ids(reciprocalRankFusion([dense, keyword], [0, 1])).slice(0, 4), ["k1", "k2", "k3", "k4"]);
  assert.deepEqual(ids(reciprocalRankFusion([dense, keyword], [1, 0])).slice(0, 4), ["d1", "k4", "k3", "d2"]);
});
