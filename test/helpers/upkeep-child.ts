// Run as a child process (test/e2e/own-words-cli.test.ts): the vector store's upkeep builds an ANN
// index over a few hundred rows in the LanceDB folder given as the argument, then a search reads it.
import { LanceVectorStore } from "../../src/stores/vectors/lancedb/vectors.js";

const SPACE = "chunks_test_16";
const vectorOf = (i: number) => Float32Array.from({ length: 16 }, (_, d) => Math.sin(i * (d + 1) * 0.37) + Math.cos(i * 0.11 * (d + 2)));
const store = await LanceVectorStore.open(process.argv[2]!, { delayMs: 60_000, versionRetentionMs: 0, vectorIndexMinRows: 400 });
const scopes = Array.from({ length: 50 }, (_, d) => ({ documentId: `doc_${d}`, strategy: "recursive", generation: `gen_${d}`, chunkCount: 10 }));
await store.add(
  SPACE,
  scopes.flatMap((scope, d) => Array.from({ length: 10 }, (_, k) => ({ ...scope, chunkId: `c${d * 10 + k}`, text: "", vector: vectorOf(d * 10 + k) }))),
);
await store.maintain();
await store.search(SPACE, vectorOf(7.5), scopes, 10);
await store.close();
