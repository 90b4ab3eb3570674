import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { join } from "node:path";
import { Database } from "../../src/stores/sqlite/driver.js";
import { CACHE_FILE } from "../../src/stores/sqlite/files.js";

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

test("a cache another process holds locked (cache prune/clear compacting it) does not fail processing: a note says it was not updated", async () => {
  const ws = await createWorkspace({}, {}, { ownCache: true });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    // Another connection takes the cache's write lock and keeps it past the busy timeout (5 s).
    const holder = new Database(join(ws.app.config.cacheDir, CACHE_FILE));
    holder.exec("BEGIN IMMEDIATE");
    let result;
    try {
      result = await ws.app.process(doc.id, ["recursive"]);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    assert.equal(result.strategiesFailed.length, 0, JSON.stringify(result.strategiesFailed));
    assert.equal(result.strategiesCompleted.length, 1);
    assert.equal(result.notes?.length, 1);
    assert.match(result.notes![0]!, /^the embedding cache was not updated for \d+ texts/);
    // Nothing was cached: the next run computes them again (and caches them now).
    const embedder = await ws.internals.context.embedder();
    const before = embedder.stats.computed;
    await ws.app.process(doc.id, ["recursive@chunk_size=256"]);
    assert.ok(embedder.stats.computed > before);
  } finally {
    await ws.cleanup();
  }
});
