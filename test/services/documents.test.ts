import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { composeChunkeval } from "../../src/chunkeval.js";
import { loadConfig } from "../../src/config/load.js";
import { createWorkspace } from "../helpers/workspace.js";
import { buildDocx, handbookBytes } from "../helpers/documents.js";
import { storedOriginals } from "../helpers/originals.js";

test("an upload of bytes already stored returns the stored document and stores nothing; forceNew stores a second one", async () => {
  const ws = await createWorkspace();
  try {
    const first = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    assert.equal(first.alreadyStored, false);
    const again = await ws.app.upload({ filename: "copy of handbook.docx", bytes: handbookBytes() });
    assert.deepEqual([again.id, again.filename, again.alreadyStored], [first.id, "handbook.docx", true]);
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 10 })).total, 1);
    assert.equal(await storedOriginals(ws.app.config, "files"), 1, "no second original kept");

    const forced = await ws.app.upload({ filename: "copy of handbook.docx", bytes: handbookBytes() }, { forceNew: true });
    assert.notEqual(forced.id, first.id);
    assert.deepEqual([forced.filename, forced.alreadyStored], ["copy of handbook.docx", false]);
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 10 })).total, 2);
    // Other bytes are another document, whatever the name.
    const other = await ws.app.upload({ filename: "handbook.docx", bytes: await buildDocx([{ p: "Another text entirely." }]) });
    assert.equal(other.alreadyStored, false);
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 10 })).total, 3);
  } finally {
    await ws.cleanup();
  }
});

test("two instances on one data directory uploading the same bytes at once store them once", async () => {
  const ws = await createWorkspace();
  // A second instance with its own connection to the metadata store, as another process sharing the data directory has.
  const other = await composeChunkeval(
    loadConfig({
      cwd: ws.dir,
      env: { CHUNKEVAL_EMBEDDER_WORKERS: "0" },
      flags: {
        data_dir: join(ws.dir, "data"),
        embedder: "hash",
        questions_dir: join(ws.dir, "questions"),
        metadata_store_uri: ws.app.config.metadataStoreUri,
      },
    }).config,
  );
  try {
    // Both calls look for the bytes before either has parsed them (parsing is the first await),
    // so both miss: only the check inside the insert's transaction can keep the second out.
    const [a, b] = await Promise.all([
      ws.app.upload({ filename: "a.docx", bytes: handbookBytes() }),
      other.app.upload({ filename: "b.docx", bytes: handbookBytes() }),
    ]);
    assert.equal(a.id, b.id);
    assert.deepEqual([a.alreadyStored, b.alreadyStored].sort(), [false, true]);
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 10 })).total, 1);
    assert.equal(await storedOriginals(ws.app.config, "files"), 1, "the loser's stored original is removed");
  } finally {
    await other.app.close();
    await ws.cleanup();
  }
});
