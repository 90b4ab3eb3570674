// Issue 37 item 4: what every vector backend guarantees the evaluation services (the VectorStore
// port, src/stores/vectors/vector-store.ts), run over each backend of the registry as the metadata
// store's contract runs over SQLite and PostgreSQL. A new backend adds its place in
// test/helpers/vector-stores.ts and passes these.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { VectorRow, VectorScope } from "../../src/stores/vectors/vector-store.js";
import { VECTOR_STORES } from "../helpers/vector-stores.js";

const DIMENSION = 4;
/** A unit vector pointing mostly along axis `i`, leaning towards axis `j` by `lean`. */
function unit(i: number, lean = 0, j = (i + 1) % DIMENSION): Float32Array {
  const v = new Float32Array(DIMENSION);
  v[i] = 1;
  v[j] = lean;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}
function row(scope: VectorScope, chunkId: string, vector: Float32Array): VectorRow {
  return { chunkId, documentId: scope.documentId, strategy: scope.strategy, generation: scope.generation, text: chunkId, vector };
}
const A1: VectorScope = { documentId: "doc_a", strategy: "recursive", generation: "gen_a1" };
const A2: VectorScope = { documentId: "doc_a", strategy: "recursive", generation: "gen_a2" };
const B1: VectorScope = { documentId: "doc_b", strategy: "recursive", generation: "gen_b1" };

for (const { name, create } of VECTOR_STORES) {
  test(`${name}: a search finds the nearest rows of its scopes only, best first, at most the limit`, async () => {
    const place = await create();
    const store = await place.open();
    try {
      const space = store.spaceFor("contract", DIMENSION);
      await store.add(space, [row(A1, "a1-near", unit(0, 0.1)), row(A1, "a1-mid", unit(0, 0.8)), row(A1, "a1-far", unit(2))]);
      await store.add(space, [row(A2, "a2-exact", unit(0)), row(B1, "b1-exact", unit(0, 0.05))]);
      const inA1 = await store.search(space, unit(0), [A1], 2);
      assert.deepEqual(
        inA1.map((h) => h.chunkId),
        ["a1-near", "a1-mid"],
        "another generation of the same document is not searched",
      );
      assert.ok(inA1[0]!.score > inA1[1]!.score && inA1[0]!.score <= 1 + 1e-6, "cosine similarity, best first");
      // A collection searches one scope per document: their rows rank together.
      const collection = await store.search(space, unit(0), [A1, B1], 3);
      assert.deepEqual(
        collection.map((h) => h.chunkId),
        ["b1-exact", "a1-near", "a1-mid"],
      );
    } finally {
      await store.close();
      place.cleanup();
    }
  });

  test(`${name}: spaces keep embedders apart; deleting a generation or a document removes only its rows; the inventory says what is left`, async () => {
    const place = await create();
    const store = await place.open();
    try {
      const one = store.spaceFor("contract", DIMENSION);
      const other = store.spaceFor("other-embedder", DIMENSION);
      assert.notEqual(one, other);
      assert.notEqual(store.spaceFor("contract", DIMENSION * 2), one, "another dimension is another space");
      assert.equal(store.spaceFor("contract", DIMENSION), one, "the same embedder and dimension: the same space");
      await store.add(one, [row(A1, "a1", unit(0)), row(A2, "a2", unit(1)), row(B1, "b1", unit(2))]);
      await store.add(other, [row(A1, "a1-other", unit(0))]);
      assert.deepEqual(
        (await store.search(other, unit(0), [A1], 5)).map((h) => h.chunkId),
        ["a1-other"],
        "a space holds its own vectors only",
      );
      await store.deleteGeneration(one, A2);
      const entries = async () => (await store.inventory()).map((e) => `${e.vectorSpace} ${e.documentId} ${e.generation} ${e.chunkId}`).sort();
      assert.deepEqual(await entries(), [`${one} doc_a gen_a1 a1`, `${one} doc_b gen_b1 b1`, `${other} doc_a gen_a1 a1-other`].sort());
      await store.deleteDocument("doc_a");
      assert.deepEqual(await entries(), [`${one} doc_b gen_b1 b1`], "a document's rows go from every space");
      assert.deepEqual(await store.search(one, unit(0), [A1], 5), []);
    } finally {
      await store.close();
      place.cleanup();
    }
  });

  test(`${name}: what one opening wrote, another reads (another process, or after a restart), upkeep included`, async () => {
    const place = await create();
    const first = await place.open();
    const space = first.spaceFor("contract", DIMENSION);
    try {
      await first.add(space, [row(A1, "kept", unit(3)), row(A2, "dropped", unit(3))]);
      await first.deleteGeneration(space, A2);
      await first.maintain();
    } finally {
      await first.close();
    }
    const second = await place.open();
    try {
      assert.deepEqual(
        (await second.search(space, unit(3), [A1, A2], 5)).map((h) => h.chunkId),
        ["kept"],
      );
      assert.deepEqual(
        (await second.inventory()).map((e) => e.chunkId),
        ["kept"],
      );
    } finally {
      await second.close();
      place.cleanup();
    }
  });
}
