import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { LanceVectorStore } from "../../src/stores/vectors/lancedb/vectors.js";

const SPACE = "chunks_test_16";
const vectorOf = (i: number) => Float32Array.from({ length: 16 }, (_, d) => Math.sin(i * (d + 1) * 0.37) + Math.cos(i * 0.11 * (d + 2)));
const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

test("a collection's search over many rows uses the ANN index and finds the exact neighbours; one document's search stays exact", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-collection-search-"));
  const store = await LanceVectorStore.open(dir, { delayMs: 60_000, versionRetentionMs: 0, vectorIndexMinRows: 400 });
  try {
    const documents = 60;
    const perDocument = 10;
    const scopes = Array.from({ length: documents }, (_, d) => ({
      documentId: `doc_${d}`,
      strategy: "recursive",
      generation: `gen_${d}`,
      chunkCount: perDocument,
    }));
    const rows = scopes.flatMap((scope, d) =>
      Array.from({ length: perDocument }, (_, k) => ({ ...scope, chunkId: `c${d * perDocument + k}`, text: "", vector: vectorOf(d * perDocument + k) })),
    );
    await store.add(SPACE, rows);
    // Another strategy's rows in the same table: never returned for recursive.
    await store.add(
      SPACE,
      rows.slice(0, 50).map((r) => ({ ...r, chunkId: `x${r.chunkId}`, strategy: "fixed_size", generation: `other_${r.generation}` })),
    );
    await store.maintain();
    const table = await (await lancedb.connect(dir)).openTable(SPACE);
    assert.ok(
      (await table.listIndices()).some((index) => index.columns.includes("vector")),
      "a table past vectorIndexMinRows gets an ANN index",
    );

    const exactTop = (query: Float32Array, among: typeof rows, k: number) =>
      among
        .map((r) => ({ id: r.chunkId, score: cosine(query, r.vector) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, k)
        .map((r) => r.id);
    let found = 0;
    for (const q of [3, 77, 250, 431, 598]) {
      const query = vectorOf(q + 0.5);
      const hits = await store.search(SPACE, query, scopes, 10);
      assert.ok(
        hits.every((h) => h.chunkId.startsWith("c")),
        "only the scopes' strategy and generations",
      );
      const expected = exactTop(query, rows, 10);
      found += hits.filter((h) => expected.includes(h.chunkId)).length;
    }
    assert.ok(found / 50 >= 0.9, `recall@10 of the collection search against exact: ${found / 50}`);

    // One document's scope: exact, its own rows only, in exact order.
    const one = scopes[17]!;
    const query = vectorOf(1000);
    const hits = await store.search(SPACE, query, [one], 5);
    assert.deepEqual(
      hits.map((h) => h.chunkId),
      exactTop(
        query,
        rows.filter((r) => r.documentId === one.documentId),
        5,
      ),
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
