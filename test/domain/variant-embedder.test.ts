// Issue 36 item 4: the embedder is a variant parameter (`@embedder=`, a sweep's `embedder=`), part of
// the index key, and its value may hold the separator (`openai:text-embedding-3-small`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { embeddersNamedIn, expandSweep, indexKeyOf, parseSweepSpec, splitVariantSpec, withoutParameter } from "../../src/domain/variant-key.js";

test("an embedder's value keeps its colon: the piece after it without '=' continues it, other parameters follow", () => {
  assert.deepEqual(splitVariantSpec("recursive@chunk_size=128:embedder=openai:text-embedding-3-small:retrieval=dense").parameters, [
    ["chunk_size", "128"],
    ["embedder", "openai:text-embedding-3-small"],
    ["retrieval", "dense"],
  ]);
  assert.deepEqual(splitVariantSpec("semantic@embedder=hf:Xenova/all-MiniLM-L6-v2").parameters, [["embedder", "hf:Xenova/all-MiniLM-L6-v2"]]);
  // Only after an embedder: elsewhere a piece without '=' is still malformed.
  assert.throws(() => splitVariantSpec("recursive@chunk_size=128:dense"), /"dense" is not parameter=value/);
  assert.throws(() => splitVariantSpec("recursive@embedder"), /"embedder" is not parameter=value/);
});

test("a sweep over embedders expands to one variant per embedder, provider specs whole", () => {
  const sweep = parseSweepSpec("recursive:chunk_size=128,256:embedder=use,openai:text-embedding-3-small");
  assert.deepEqual(sweep.axes, [
    { name: "chunk_size", values: ["128", "256"] },
    { name: "embedder", values: ["use", "openai:text-embedding-3-small"] },
  ]);
  assert.deepEqual(expandSweep(sweep), [
    "recursive@chunk_size=128:embedder=use",
    "recursive@chunk_size=128:embedder=openai:text-embedding-3-small",
    "recursive@chunk_size=256:embedder=use",
    "recursive@chunk_size=256:embedder=openai:text-embedding-3-small",
  ]);
});

test("the embedder is part of the index key (other vectors are another index); search parameters are not", () => {
  assert.equal(indexKeyOf("recursive@embedder=hash:retrieval=dense:top_k=3"), "recursive@embedder=hash");
  assert.equal(withoutParameter("recursive@chunk_size=128:embedder=openai:m:retrieval=dense", "embedder"), "recursive@chunk_size=128:retrieval=dense");
  assert.equal(withoutParameter("recursive@chunk_size=128:embedder=openai:m:retrieval=dense", "retrieval"), "recursive@chunk_size=128:embedder=openai:m");
});

test("the embedders a request names, in variants and sweeps; a malformed spec names none", () => {
  assert.deepEqual(embeddersNamedIn(["recursive", "structure@embedder=openai:big:retrieval=dense", "bad@"], ["semantic:embedder=use,hf:m", "broken"]), [
    "openai:big",
    "use",
    "hf:m",
  ]);
  assert.deepEqual(embeddersNamedIn(["recursive@chunk_size=128"], []), []);
});
