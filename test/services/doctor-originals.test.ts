import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorkspace, type Workspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { runRawSql } from "../helpers/raw-sql.js";
import { ORPHAN_ORIGINAL_GRACE_MS } from "../../src/services/corpus/doctor.js";
import { LocalDiskOriginals } from "../../src/stores/originals/local-disk.js";

/** Makes a stored original look `ms` old, wherever the store keeps it (a file's time, or PostgreSQL's stored_at_ms). */
async function age(ws: Workspace, location: string, ms: number): Promise<void> {
  const when = Date.now() - ms;
  if (existsSync(location)) utimesSync(location, when / 1000, when / 1000);
  else await runRawSql(ws.app.config.metadataStoreUri, `UPDATE originals SET stored_at_ms = ${Math.round(when)} WHERE location = '${location}'`);
}

test("doctor reports originals no row names (a process killed mid-upload), and --repair removes them once past the grace period", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    assert.equal((await ws.app.doctor()).consistent, true);
    const originals = ws.internals.context.originals;
    // What a killed upload leaves: an original whose row was never written, old and young.
    const old = await originals.put("files/doc_killedupload.docx", Buffer.from("half"));
    const young = await originals.put("objects/file_inflight.pdf", Buffer.from("in flight"));
    await age(ws, old, ORPHAN_ORIGINAL_GRACE_MS + 60_000);
    const report = await ws.app.doctor();
    assert.equal(report.consistent, false);
    assert.deepEqual(
      report.orphanOriginals.map((o) => o.location),
      [old],
    );
    assert.ok(report.inFlight >= 1, "the young one may be an upload in flight");
    const repaired = await ws.app.doctor({ repair: true });
    assert.equal(repaired.consistent, true, JSON.stringify(repaired));
    assert.match(repaired.repaired.join("\n"), /removed 1 original\(s\) no row named/);
    assert.equal(await originals.read(old), null);
    assert.notEqual(await originals.read(young), null, "within the grace period it stays");
    // The document's own original is untouched and still read.
    assert.ok((await originals.read((await ws.internals.context.documents.filePath(doc.id))!))!.equals(handbookBytes()));
    // A file chunkeval did not name is not doctor's to judge, however old.
    const foreign = await originals.put("files/notes-of-the-operator.txt", Buffer.from("mine"));
    await age(ws, foreign, ORPHAN_ORIGINAL_GRACE_MS * 2);
    assert.equal((await ws.app.doctor({ repair: true })).consistent, true);
    assert.notEqual(await originals.read(foreign), null);
  } finally {
    await ws.cleanup();
  }
});

test("rows that name none of the stored originals (a moved data directory, another database): nothing is called an orphan or removed", async () => {
  const ws = await createWorkspace();
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    // The rows name originals this store does not hold under those names (written elsewhere).
    const stored = (await ws.internals.context.documents.filePath(doc.id))!;
    await runRawSql(ws.app.config.metadataStoreUri, `UPDATE documents SET file_path = 'elsewhere/files/doc_0000000000000000.docx'`);
    await age(ws, stored, ORPHAN_ORIGINAL_GRACE_MS * 2);
    const report = await ws.app.doctor({ repair: true });
    assert.equal(report.consistent, false);
    assert.deepEqual(report.orphanOriginals, []);
    assert.match(report.originalsMismatch ?? "", /none of the 1 stored originals is named by the 1 rows/);
    assert.notEqual(await ws.internals.context.originals.read(stored), null, "nothing removed");
  } finally {
    await ws.cleanup();
  }
});

test("an original is written under a temporary name and renamed: a write killed midway leaves no file under the real name", async () => {
  const ws = await createWorkspace();
  try {
    const dataDir = join(ws.dir, "data");
    const store = new LocalDiskOriginals(dataDir);
    const location = await store.put("files/doc_a.txt", Buffer.from("whole"));
    assert.equal(location, join(dataDir, "files", "doc_a.txt"));
    assert.deepEqual(readdirSync(join(dataDir, "files")), ["doc_a.txt"], "no temporary file stays behind");
    // A write that fails midway (here: its folder is a file) leaves nothing under the real name or a temporary one.
    writeFileSync(join(dataDir, "objects"), "not a folder");
    await assert.rejects(store.put("objects/doc_b.txt", Buffer.from("never")));
    assert.equal(existsSync(join(dataDir, "objects", "doc_b.txt")), false);
    rmSync(join(dataDir, "objects"));
    // What kill -9 mid-write leaves behind: a partial file, which doctor lists as an original no row names.
    writeFileSync(`${location}.partial-deadbeef`, "ha");
    const listed = (await store.list()).map((o) => o.location).sort();
    assert.deepEqual(listed, [location, `${location}.partial-deadbeef`].sort());
  } finally {
    await ws.cleanup();
  }
});
