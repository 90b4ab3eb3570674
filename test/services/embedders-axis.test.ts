// Issue 36 item 4: the embedder is an axis of a benchmark (`embedders`, `@embedder=`). Each named
// embedder's chunks are an index of their own (embedded, and searched, with it; reused by later
// runs, whatever embedder is configured then), every variant is searched the run's one way, the
// judge scores each row by evidence its own retriever did not rank by, and the verdict says whether
// the winner holds with each embedder. The second embedder is a local stand-in for a paid API.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";

const STUB = "openai:stub-embedding";

test("bench with two embedders: one index per embedder, questions embedded by each, one search mode, a note across embedders, indexes reused", async () => {
  const stub = await startOpenAiStub();
  const env = { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" };
  const ws = await createWorkspace({ generator: "extractive" }, env);
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 8);
    const input = { document: { id: doc.id }, questions, questionsSource: "handbook", strategies: "recursive,structure", embedders: ["hash", STUB] };
    const dense = { ...input, retrievers: ["dense" as const] };
    const first = await ws.app.bench(dense);
    // A named embedder stays in the key, the configured one (hash) too: its index is the same whatever is configured later.
    assert.deepEqual(first.strategiesUsed, [
      "recursive@embedder=hash:retrieval=dense",
      `recursive@embedder=${STUB}:retrieval=dense`,
      "structure@embedder=hash:retrieval=dense",
      `structure@embedder=${STUB}:retrieval=dense`,
    ]);
    assert.equal(first.details.search![`recursive@embedder=${STUB}:retrieval=dense`]!.embedder, STUB);
    // Each embedder's chunks are an index of their own, embedded with it.
    const stubChunks = await ws.app.documentChunks(doc.id, `recursive@embedder=${STUB}`);
    const hashChunks = await ws.app.documentChunks(doc.id, "recursive@embedder=hash");
    assert.equal(stubChunks.chunks.length, hashChunks.chunks.length, "the same chunking");
    const embedded = stub.requests.filter((r) => r.path === "/v1/embeddings").flatMap((r) => r.body.input as string[]);
    assert.ok(embedded.includes(stubChunks.chunks[0]!.text), "the stand-in embedded its variant's chunks");
    assert.ok(
      questions.every((q) => embedded.includes(q.question)),
      "the stand-in embedded the questions its variants search with",
    );
    // The judge scores each row by what its own retriever did not rank by: dense search with the
    // word-overlap hash embedder by the judge's embedder (hash too: nothing independent, so null);
    // dense search with a semantic embedder by lexical evidence.
    const relevance = (key: string) => first.aggregateMetrics[key]!.avgContextRelevance;
    assert.equal(relevance("recursive@embedder=hash:retrieval=dense"), null);
    assert.equal(typeof relevance(`recursive@embedder=${STUB}:retrieval=dense`), "number");
    assert.ok(
      first.verdictNotes.some((n) => /^(The chunking verdict holds across embedders|Across embedders)/.test(n)),
      JSON.stringify(first.verdictNotes),
    );
    assert.ok(!first.verdictNotes.some((n) => /Across retrievers|Retrieval modes differ/.test(n)), "one search mode: nothing across retrievers");

    // Without --retrievers every variant is searched the run's one way (keyword with the hash embedder configured),
    // whichever embedder it has, and the verdict says the embedder then changed nothing but the semantic cuts.
    const keyword = await ws.app.bench(input);
    assert.deepEqual(
      Object.values(keyword.details.search!).map((s) => s.retrieval),
      ["keyword", "keyword", "keyword", "keyword"],
    );
    assert.ok(!keyword.verdictNotes.some((n) => /Across retrievers|Retrieval modes differ/.test(n)), JSON.stringify(keyword.verdictNotes));
    assert.ok(keyword.verdictNotes.some((n) => /compared under keyword search only, which reads no vector/.test(n)));
    // A variant's own embedder is kept, even the configured one's, and the run's embedders do not replace it.
    assert.deepEqual((await ws.app.estimateBench({ ...input, strategies: "structure,recursive@embedder=hash", embedders: [STUB] })).variants, [
      `structure@embedder=${STUB}`,
      "recursive@embedder=hash",
    ]);

    // With another embedder configured, the same run finds both indexes built: none is rebuilt, no chunk embedded again.
    await ws.reopen({ embedder: STUB });
    const before = stub.requests.length;
    const second = await ws.app.bench(dense);
    assert.ok(
      second.details.indexing.every((x) => x.reused),
      JSON.stringify(second.details.indexing),
    );
    const again = stub.requests.slice(before).flatMap((r) => (r.body.input as string[]) ?? []);
    assert.ok(!again.includes(stubChunks.chunks[0]!.text), "no chunk embedded again");
    // An unknown embedder is refused before any work, naming the variant; a provider without its model too.
    await assert.rejects(
      ws.app.estimateBench({ ...input, embedders: ["nope"] }),
      /strategy variant "recursive@embedder=nope": embedder "nope": unknown embedder "nope"/,
    );
    await assert.rejects(ws.app.estimateBench({ ...input, embedders: ["openai:"] }), /embedder "openai:" names no model: write openai:MODEL/);
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("the estimate prices each embedder's texts at its own rate: a paid variant embedder is not free because the configured one is", async () => {
  const stub = await startOpenAiStub();
  const ws = await createWorkspace({}, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 4);
    const estimate = (embedders: string[]) =>
      ws.app.estimateBench({ document: { id: doc.id }, questions, strategies: "recursive", retrievers: ["dense"], embedders, dryRun: true });
    const free = await estimate(["hash"]);
    const paid = await estimate(["hash", "openai:text-embedding-3-large"]);
    assert.equal(free.costUsd, 0);
    assert.ok(paid.costUsd > 0, `text-embedding-3-large's tokens are priced: $${paid.costUsd}`);
    assert.match(paid.includes, /tokens for the variants' other embedders at their kind's usual rate/);
    assert.equal(stub.requests.filter((r) => r.path === "/v1/embeddings").length, 0, "the estimate calls no paid model");
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});
