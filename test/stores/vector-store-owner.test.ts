import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";

const QUESTION = "How much does a member share cost?";

test("two data directories given one vector_store_uri: the second is refused before it can sweep the first's vectors", async () => {
  const shared = mkdtempSync(join(tmpdir(), "chunkeval-shared-store-"));
  const a = await createWorkspace({ vector_store_uri: shared });
  const b = await createWorkspace({ vector_store_uri: shared });
  try {
    const docA = await a.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    assert.deepEqual((await a.app.process(docA.id, ["recursive"])).strategiesFailed, []);
    assert.ok(existsSync(join(shared, "owner.lance")), "the store records its data directory");

    // Without the claim, B's first open swept A's generation as abandoned (B's SQLite does not know it).
    const docB = await b.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const refused = await b.app.process(docB.id, ["recursive"]);
    assert.deepEqual(refused.strategiesCompleted, []);
    assert.match(refused.strategiesFailed[0]!.error, /belongs to another chunkeval data directory .*give each data directory its own vector_store_uri/);
    await assert.rejects(b.app.doctor({ repair: true }), /belongs to another chunkeval data directory/, "doctor --repair would delete A's vectors as orphans");

    const answer = await a.app.ask({ documentId: docA.id, strategy: "recursive", question: QUESTION });
    assert.match(answer.retrievedChunks.map((c) => c.text).join(" "), /100 euros/, "A's vectors still answer");
    assert.equal((await a.app.doctor()).consistent, true);
    // A restart of A is still A.
    const reopened = await a.reopen();
    assert.ok((await reopened.ask({ documentId: docA.id, strategy: "recursive", question: QUESTION })).retrievedChunks.length > 0);
  } finally {
    await a.cleanup();
    await b.cleanup();
    rmSync(shared, { recursive: true, force: true });
  }
});

test("an unreachable object store is an IndexFailedError naming the URI, not LanceDB's debug dump", async () => {
  // Port 9 on 127.0.0.1 refuses connections; no retry budget is spent on a real network.
  const env = { AWS_ENDPOINT: "http://127.0.0.1:9", AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "x", AWS_SECRET_ACCESS_KEY: "y", AWS_ALLOW_HTTP: "true" };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const ws = await createWorkspace({ vector_store_uri: "s3://nowhere/lancedb" });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const failed = await ws.app.process(doc.id, ["recursive"]);
    assert.match(failed.strategiesFailed[0]!.error, /^cannot open the vector store at s3:\/\/nowhere\/lancedb: /);
    assert.doesNotMatch(failed.strategiesFailed[0]!.error, /\n|backtrace/, "one line, without the Rust debug dump");
    await assert.rejects(ws.app.doctor(), (error: Error) => {
      assert.equal(error.name, "IndexFailedError");
      assert.match(error.message, /^cannot open the vector store at s3:\/\/nowhere\/lancedb: /);
      return true;
    });
    assert.equal((await ws.app.listDocuments({ offset: 0, limit: 10 })).items.length, 1, "the upload is still there");
  } finally {
    await ws.cleanup();
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
});
