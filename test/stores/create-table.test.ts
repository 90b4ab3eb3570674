import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { createOrOpenTable } from "../../src/stores/vectors/lancedb/create-table.js";

test("createOrOpenTable: creates; opens a table another writer made first; waits for one still being committed; else throws the creation's error", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-create-table-"));
  const db = await lancedb.connect(dir);
  const rows = [{ id: 1 }];
  const exclusive = (name: string) => () => db.createTable(name, rows, { mode: "create" });
  try {
    const first = await createOrOpenTable(db, "t", exclusive("t"));
    assert.equal(first.created, true);
    const second = await createOrOpenTable(db, "t", exclusive("t"));
    assert.equal(second.created, false, "the loser of the race opens the winner's table");
    assert.equal(await second.table.countRows(), 1);

    // The winner's table becomes readable only after the loser's creation failed.
    const late = createOrOpenTable(db, "late", async () => {
      setTimeout(() => void db.createTable("late", rows), 150);
      throw new Error("Dataset already exists");
    });
    const opened = await late;
    assert.equal(opened.created, false);
    assert.equal(await opened.table.countRows(), 1, "opened once the other writer committed");

    await assert.rejects(
      createOrOpenTable(db, "never", async () => {
        throw new Error("disk full");
      }),
      /disk full/,
      "no table appears: the creation's own error",
    );
    for (const t of [first.table, second.table, opened.table]) t.close();
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
