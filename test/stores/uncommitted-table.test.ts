import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { openCommittedTable } from "../../src/stores/vectors/lancedb/create-table.js";
import { LanceVectorStore } from "../../src/stores/vectors/lancedb/vectors.js";

const vector = (seed: number) => Float32Array.from({ length: 8 }, (_, d) => Math.sin(seed * (d + 1)));
const row = (chunkId: string, generation: string, seed: number) => ({
  chunkId,
  documentId: "doc_1",
  strategy: "recursive",
  generation,
  text: chunkId,
  vector: vector(seed),
});

/**
 * A table folder whose first commit is not written: what LanceDB lists while another process
 * creates the table, and what a process killed mid-creation leaves. Built here by creating a
 * table and removing its versions, the part a creation writes last.
 */
async function leaveUncommitted(dir: string, name: string): Promise<void> {
  const db = await lancedb.connect(dir);
  (await db.createTable(name, [{ chunk_id: "lost", vector: Array.from(vector(9)) }])).close();
  db.close();
  rmSync(join(dir, `${name}.lance`, "_versions"), { recursive: true });
}

test("a table listed before its first commit (being created elsewhere, or its creator killed) is no table: inventory, deletes, next write", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-uncommitted-"));
  const store = await LanceVectorStore.open(dir, { delayMs: 60_000, versionRetentionMs: 0, vectorIndexMinRows: 10_000 });
  try {
    await store.add("chunks_committed_8", [row("a", "gen_a", 1), row("b", "gen_a", 2)]);
    await leaveUncommitted(dir, "chunks_half_8");
    const db = await lancedb.connect(dir);
    assert.ok((await db.tableNames()).includes("chunks_half_8"), "the half-made table is listed");
    await assert.rejects(db.openTable("chunks_half_8"), /was not found/, "and LanceDB cannot open it");
    assert.equal(await openCommittedTable(db, "chunks_half_8"), null);

    assert.deepEqual((await store.inventory()).map((e) => e.chunkId).sort(), ["a", "b"], "inventory lists the committed rows only");
    await store.deleteGeneration("chunks_half_8", { documentId: "doc_1", strategy: "recursive", generation: "gen_x" });
    await store.add("chunks_half_8", [row("c", "gen_c", 3)]);
    const hits = await store.search("chunks_half_8", vector(3), [{ documentId: "doc_1", strategy: "recursive", generation: "gen_c" }], 5);
    assert.deepEqual(
      hits.map((h) => h.chunkId),
      ["c"],
      "the next write creates the table over the dead folder",
    );

    // Anything else that stops a listed table opening is still an error, not an empty table.
    await store.close();
    const versions = join(dir, "chunks_committed_8.lance", "_versions");
    for (const name of readdirSync(versions)) writeFileSync(join(versions, name), "not a manifest");
    const fresh = await LanceVectorStore.open(dir, { delayMs: 60_000, versionRetentionMs: 0, vectorIndexMinRows: 10_000 });
    await assert.rejects(fresh.inventory());
    await fresh.close();
    db.close();
  } finally {
    await store.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});
