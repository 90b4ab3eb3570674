import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.js";
import { createWorkspace } from "../helpers/workspace.js";
import { runCli } from "../helpers/cli.js";
import { handbookBytes } from "../helpers/documents.js";

test("metadata_store_uri: by default the data directory's SQLite file; a path or sqlite:// URI is resolved; another scheme is a configuration error", () => {
  assert.equal(loadConfig({ cwd: "/tmp", env: {}, flags: { data_dir: "/srv/ce" } }).config.metadataStoreUri, "/srv/ce/chunkeval.sqlite");
  assert.equal(loadConfig({ cwd: "/tmp", env: { CHUNKEVAL_METADATA_STORE_URI: "meta/store.sqlite" } }).config.metadataStoreUri, "/tmp/meta/store.sqlite");
  assert.equal(loadConfig({ cwd: "/tmp", env: {}, flags: { metadata_store_uri: "sqlite://meta.sqlite" } }).config.metadataStoreUri, "/tmp/meta.sqlite");
  for (const bad of ["mysql://db/chunkeval", "sqlite://"]) {
    const loaded = loadConfig({ cwd: "/tmp", env: {}, flags: { metadata_store_uri: bad } });
    assert.match(loaded.errors.join("\n"), /metadata_store_uri: ".*" is not a local path or a sqlite:\/\/…, postgres:\/\/…, postgresql:\/\/… URI/, bad);
  }
});

test("the store named by metadata_store_uri holds the metadata: the data directory gets no database of its own", async () => {
  const elsewhere = mkdtempSync(join(tmpdir(), "chunkeval-meta-"));
  const ws = await createWorkspace({ metadata_store_uri: join(elsewhere, "meta.sqlite") });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    assert.ok(existsSync(join(elsewhere, "meta.sqlite")));
    assert.ok(!existsSync(join(ws.app.config.dataDir, "chunkeval.sqlite")), "no database in the data directory");
    const reopened = await ws.reopen();
    assert.equal((await reopened.getDocument(doc.id)).filename, "handbook.docx", "read back from the configured store");
  } finally {
    await ws.cleanup();
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("an unknown metadata_store_uri scheme stops the CLI with exit 2 before anything is written", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-meta-cli-"));
  try {
    const result = await runCli(["documents"], { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_METADATA_STORE_URI: "mysql://db/chunkeval" }, dir);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /invalid configuration: metadata_store_uri: "mysql:\/\/db\/chunkeval" is not a local path or a sqlite:\/\/…, postgres:\/\/…, postgresql:\/\/… URI/,
    );
    assert.ok(!existsSync(join(dir, "data")), "no data directory was made");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
