// The offline judge against span recall under keyword retrieval, the bundled embedder's default, on
// the second corpus, examples/standard (the shared harness and what it checks:
// test/helpers/ground-truth.ts). Keyword rows are judged by the sentence ranking
// (src/evaluators/sentence-ranking.ts), not by the lexical evidence the dense tests hold.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { DENSE, TARGET, benchAtEachTopK, correlation, ordersAsRecall, printStrategies } from "../helpers/ground-truth.js";
import { createWorkspace, type Workspace } from "../helpers/workspace.js";

let ws: Workspace;
// The default offline stack as a user gets it: the bundled model, searched by keyword (its default, named here and
// in each variant so that a change of default does not turn this into a second dense test).
before(async () => (ws = await createWorkspace({ embedder: "use", retrieval: "keyword" })));
after(() => ws.cleanup());

/**
 * Below the target at top_k 5 on purpose: BM25's top 5 miss seldom here (recall is 1 for most
 * pairs), and a judge weaker than BM25 at finding the answer sees few of its misses (Spearman 0.42
 * over these five strategies, 1 December 2026; over all six, 0.42 against the 0.27 of the judge
 * before it, the embedder's relatedness alone). A floor that catches a fall back to that judge.
 */
const TOP_K_5_FLOOR = 0.35;

const TITLE = "context relevance under keyword retrieval tracks span recall on the second corpus: Spearman >= 0.5 at top_k 1, above a floor at 5";
test(TITLE, async () => {
  const folder = "examples/standard";
  const files = readdirSync(folder).map((filename) => ({ filename, bytes: readFileSync(`${folder}/${filename}`) }));
  // The same five strategies as the dense test, each searched by keyword here (named in the variant too).
  const keyword = DENSE.map((strategy) => `${strategy}@retrieval=keyword`);
  const runs = await benchAtEachTopK(ws, { collection: { name: "standard", add: files } }, "questions/standard.json", "standard keyword", keyword);
  for (const [topK, results] of runs.byTopK) {
    const { rho, pairs } = correlation(results, () => true);
    console.log(`# standard keyword top_k ${topK}: spearman(context relevance, recall) = ${rho.toFixed(3)} over ${pairs} (variant, question) pairs`);
    for (const split of ["dev", "heldout"]) {
      const half = correlation(results, (i) => runs.splits[i] === split);
      console.log(`# standard keyword ${split} top_k ${topK}: spearman = ${half.rho.toFixed(3)} over ${half.pairs} pairs`);
    }
    printStrategies(`standard keyword top_k ${topK}`, results);
    assert.ok(rho >= (topK === 1 ? TARGET : TOP_K_5_FLOOR), `standard keyword top_k ${topK}: Spearman ${rho}`);
    // Printed, not held: the judge asks whether the context holds the document's best sentences, span recall how much
    // of the reference span it holds, so larger chunks gain recall the judge does not see. On 1 December 2026 at top_k 1
    // it ordered 2 of the 4 significantly different pairs as recall does (structure's recall exceeds semantic's and
    // semantic_parent_child's, its context relevance does not); the embedder's relatedness before it, 3 of 4
    // (fixed_size below recursive by 0.001 of 10; semantic above structure).
    ordersAsRecall(`standard keyword top_k ${topK}`, results);
  }
});
