// Issue 36 item 4: the embedder is an axis of a benchmark (`embedders`, `@embedder=`). Each embedder's
// chunks are their own index (embedded, and searched, with it; reused by later runs), the judge
// scores each row by evidence its own retriever did not rank by, and the verdict says whether the
// winner holds with each embedder. The second embedder is a local stand-in for a paid API.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { loadQuestionsFile } from "../../src/evaluators/questions.js";

const STUB = "openai:stub-embedding";

test("bench with two embedders: one index per embedder, questions embedded by each, a verdict note across embedders, indexes reused", async () => {
  const stub = await startOpenAiStub();
  const ws = await createWorkspace({ generator: "extractive" }, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const questions = (await loadQuestionsFile("questions/harbor-light-handbook.json")).slice(0, 8);
    const run = () =>
      ws.app.bench({
        document: { id: doc.id },
        questions,
        questionsSource: "handbook",
        strategies: "recursive,structure",
        retrievers: ["dense"],
        embedders: ["hash", STUB],
      });
    const first = await run();
    assert.deepEqual(first.strategiesUsed, [
      "recursive@retrieval=dense",
      `recursive@embedder=${STUB}:retrieval=dense`,
      "structure@retrieval=dense",
      `structure@embedder=${STUB}:retrieval=dense`,
    ]);
    assert.equal(first.details.search![`recursive@embedder=${STUB}:retrieval=dense`]!.embedder, STUB);
    assert.equal(first.details.search!["recursive@retrieval=dense"]!.embedder, undefined, "the run's own embedder is not repeated per row");
    // Each embedder's chunks are an index of their own, embedded with it.
    const stubChunks = await ws.app.documentChunks(doc.id, `recursive@embedder=${STUB}`);
    const hashChunks = await ws.app.documentChunks(doc.id, "recursive");
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
    assert.equal(relevance("recursive@retrieval=dense"), null);
    assert.equal(typeof relevance(`recursive@embedder=${STUB}:retrieval=dense`), "number");
    assert.ok(
      first.verdictNotes.some((n) => /^(The chunking verdict holds across embedders|Across embedders)/.test(n)),
      JSON.stringify(first.verdictNotes),
    );
    // A second run reuses both indexes: neither embedder's chunks are embedded again.
    const before = stub.requests.length;
    const second = await run();
    assert.ok(
      second.details.indexing.every((x) => x.reused),
      JSON.stringify(second.details.indexing),
    );
    const again = stub.requests.slice(before).flatMap((r) => (r.body.input as string[]) ?? []);
    assert.ok(!again.includes(stubChunks.chunks[0]!.text), "no chunk embedded again");
    // An unknown embedder is refused before any work, naming the variant.
    await assert.rejects(
      ws.app.bench({ document: { id: doc.id }, questions, questionsSource: "handbook", strategies: "recursive", embedders: ["nope"] }),
      /strategy variant "recursive@embedder=nope": embedder "nope": unknown embedder "nope"/,
    );
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});
