import { test } from "node:test";
import assert from "node:assert/strict";
import { CancelledError } from "../../src/errors.js";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";

const QUESTION = "What number should I call to report a power cut?";

test("processing again replaces chunks only when the new generation is complete", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    const before = (await ws.internals.context.chunks.state(doc.id, "recursive"))!;
    const answerBefore = await ws.app.ask({ documentId: doc.id, strategy: "recursive", question: QUESTION, topK: 3 });

    // Stop a re-run after its vectors were written but before it became current (a kill midway).
    const controller = new AbortController();
    await assert.rejects(
      ws.app.process(doc.id, ["recursive"], {
        strategyOptions: { recursive: { chunk_size: 100 } },
        signal: controller.signal,
        onProgress: (e) => e.message === "indexing" && controller.abort("test kill"),
      }),
      CancelledError,
    );
    const after = (await ws.internals.context.chunks.state(doc.id, "recursive"))!;
    assert.equal(after.generation, before.generation);
    assert.equal((await ws.app.getDocument(doc.id)).chunkCounts.recursive, before.chunkCount);
    const answerAfter = await ws.app.ask({ documentId: doc.id, strategy: "recursive", question: QUESTION, topK: 3 });
    assert.deepEqual(
      answerAfter.retrievedChunks.map((c) => c.chunkId),
      answerBefore.retrievedChunks.map((c) => c.chunkId),
    );
    assert.equal(answerAfter.answer, answerBefore.answer);

    // A completed re-run switches generation and removes the old vectors.
    const result = await ws.app.process(doc.id, ["recursive"], { strategyOptions: { recursive: { chunk_size: 100 } } });
    assert.equal(result.strategiesFailed.length, 0);
    const replaced = (await ws.internals.context.chunks.state(doc.id, "recursive"))!;
    assert.notEqual(replaced.generation, before.generation);
    assert.ok(replaced.chunkCount > before.chunkCount);
    const store = await ws.internals.context.vectors();
    const hits = await store.search(replaced.vectorSpace, new Float32Array(512).fill(0.01), [before], 1000);
    assert.equal(hits.length, 0, "old generation's vectors are gone");
  } finally {
    await ws.cleanup();
  }
});

test("vectors written by a process killed before its commit are swept when the store opens", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["fixed_size"]);
    const live = (await ws.internals.context.chunks.state(doc.id, "fixed_size"))!;
    const store = await ws.internals.context.vectors();
    const orphan = { documentId: doc.id, strategy: "fixed_size", generation: "gen_orphan" };
    await store.add(store.spaceFor("hash", 512), [{ ...orphan, chunkId: "chk_orphan", text: "orphan", vector: new Float32Array(512).fill(0.1) }]);
    assert.equal((await store.search(live.vectorSpace, new Float32Array(512).fill(0.1), [orphan], 10)).length, 1);

    await ws.reopen();
    const reopened = await ws.internals.context.vectors();
    assert.equal((await reopened.search(live.vectorSpace, new Float32Array(512).fill(0.1), [orphan], 10)).length, 0);
    assert.equal((await reopened.search(live.vectorSpace, new Float32Array(512).fill(0.1), [live], 1000)).length, live.chunkCount);
  } finally {
    await ws.cleanup();
  }
});

test("a strategy that fails lands in strategies_failed while the others complete", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const result = await ws.app.process(doc.id, ["recursive", "semantic"], { strategyOptions: { semantic: { buffer_size: -1 } } });
    assert.deepEqual(
      result.strategiesCompleted.map((s) => s.strategy),
      ["recursive"],
    );
    assert.equal(result.strategiesFailed.length, 1);
    assert.equal(result.strategiesFailed[0]!.strategy, "semantic");
    assert.match(result.strategiesFailed[0]!.error, /buffer_size must be a whole number >= 0/);
    assert.deepEqual(Object.keys((await ws.app.getDocument(doc.id)).chunkCounts), ["recursive"]);
  } finally {
    await ws.cleanup();
  }
});

test("deleting a document removes its rows, vectors and stored file", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    const state = (await ws.internals.context.chunks.state(doc.id, "recursive"))!;
    const path = (await ws.internals.context.documents.filePath(doc.id))!;
    assert.deepEqual(await ws.app.deleteDocument(doc.id), { deleted: true, documentId: doc.id });
    const { existsSync } = await import("node:fs");
    assert.equal(existsSync(path), false);
    assert.equal((await ws.internals.context.chunks.current(doc.id, "recursive")).length, 0);
    const store = await ws.internals.context.vectors();
    assert.equal((await store.search(state.vectorSpace, new Float32Array(512).fill(0.1), [state], 100)).length, 0);
    await assert.rejects(ws.app.deleteDocument(doc.id), /document not found/);
  } finally {
    await ws.cleanup();
  }
});
