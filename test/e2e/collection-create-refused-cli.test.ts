import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";

test("a refused collections create stores nothing (no empty collection keeps the name); the same bytes again are not added, and said so", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-create-"));
  try {
    const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
    const good = join(dir, "fresh.txt");
    const bad = join(dir, "random.bin");
    writeFileSync(good, "Fresh notes\n\nThe kettle boils at one hundred degrees.\n");
    writeFileSync(bad, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
    const refused = await runCli(["collections", "create", "newc", good, bad], env);
    assert.equal(refused.code, 2, refused.stderr);
    const shown = await runCli(["collections", "show", "newc"], env);
    assert.equal(shown.code, 3, `the refused create left a collection: ${shown.stdout}`);
    const again = await runCli(["collections", "create", "newc", good], env);
    assert.equal(again.code, 0, again.stderr);
    const taken = await runCli(["collections", "create", "newc", good], env);
    assert.equal(taken.code, 2, taken.stderr);
    assert.match(taken.stderr, /a collection named "newc" already exists/);

    // The same bytes under another name are not added again, and the CLI says so.
    const copy = join(dir, "garden.txt");
    writeFileSync(copy, "Fresh notes\n\nThe kettle boils at one hundred degrees.\n");
    const added = await runCli(["collections", "add", "newc", copy], env);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stderr, /not added again: .*garden\.txt \(the same bytes as a document newc already holds under another name/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
