import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";

test("embedding cache: re-processing embeds nothing, and strategies that share texts embed them once", async () => {
  // Its own cache: the test counts what gets embedded, which the run's warm cache would serve.
  const ws = await createWorkspace({}, {}, { ownCache: true });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const embedder = await ws.internals.context.embedder();
    await ws.app.process(doc.id, ["semantic"]);
    const afterSemantic = { ...embedder.stats };
    assert.ok(afterSemantic.computed > 100, "sentences and chunks were embedded");
    // semantic_parent_child embeds the same sentences for its parents: all served from cache.
    await ws.app.process(doc.id, ["semantic_parent_child"]);
    const sentenceCalls = embedder.stats.cached - afterSemantic.cached;
    assert.ok(sentenceCalls >= afterSemantic.computed / 2, `${sentenceCalls} cached`);

    await ws.app.process(doc.id, "all");
    // A new process over the same data directory: everything comes from the SQLite cache.
    await ws.reopen();
    await ws.app.process(doc.id, "all");
    const rerun = (await ws.internals.context.embedder()).stats;
    assert.equal(rerun.computed, 0, "a second run over the same document embeds nothing");
    assert.ok(rerun.cached > 100);
  } finally {
    await ws.cleanup();
  }
});
