import { test } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { startTestServer } from "../helpers/server.js";
import { migratedTestDatabase } from "../helpers/postgres.js";
import { handbookBytes } from "../helpers/documents.js";
import { createServer, type Socket } from "node:net";
import { configurePools, createPool, PoolExecutor, POOL_DEFAULTS, QUEUE_POOL_SIZE } from "../../src/stores/postgres/executor.js";

/** Connections PostgreSQL has open to the database at `uri` (other than `observer`'s own). */
async function connectionsTo(observer: pg.Client, uri: string): Promise<number> {
  const database = new URL(uri).pathname.slice(1);
  const { rows } = await observer.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
    database,
  ]);
  return rows[0]!.n;
}

test("one serve opens one data pool to PostgreSQL, sized by postgres_pool_size, and the job queue's small one, whatever the burst", async () => {
  const uri = await migratedTestDatabase();
  const t = await startTestServer({ metadata_store_uri: uri, postgres_pool_size: 4 });
  const observer = new pg.Client({ connectionString: uri });
  await observer.connect();
  try {
    assert.equal((await t.upload("handbook.docx", handbookBytes())).status, 201);
    let most = 0;
    const burst = Array.from({ length: 40 }, (_, i) =>
      t.request("GET", i % 3 === 0 ? "/jobs" : i % 3 === 1 ? "/documents" : "/experiments").then((r) => assert.equal(r.status, 200)),
    );
    const watching = (async () => {
      for (let i = 0; i < 20; i++) {
        most = Math.max(most, await connectionsTo(observer, uri));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await Promise.all([...burst, watching]);
    most = Math.max(most, await connectionsTo(observer, uri));
    // The store and the originals share the four; the job queue (its LISTEN connection, claims, leases) has its own few.
    assert.ok(most <= 4 + QUEUE_POOL_SIZE, `${most} connections, more than postgres_pool_size (4) + the queue's ${QUEUE_POOL_SIZE}`);
  } finally {
    await observer.end();
    await t.close();
  }
});

test("a row locked elsewhere makes a request 503 with Retry-After within the lock timeout, not a request that waits for it", async () => {
  const uri = await migratedTestDatabase();
  const t = await startTestServer({ metadata_store_uri: uri });
  const holder = new pg.Client({ connectionString: uri });
  await holder.connect();
  try {
    const doc = await t.upload("handbook.docx", handbookBytes());
    await holder.query("BEGIN");
    await holder.query("SELECT * FROM documents WHERE id = $1 FOR UPDATE", [doc.body.id]);
    const started = Date.now();
    const refused = await t.request("DELETE", `/documents/${doc.body.id}`);
    const waited = Date.now() - started;
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.headers.get("retry-after"), "5");
    assert.equal(refused.body.type, "ServerBusyError");
    assert.match(refused.body.detail, /locked by another operation/);
    assert.ok(waited < 15_000, `answered after ${waited} ms`);
    await holder.query("ROLLBACK");
    assert.equal((await t.request("GET", "/documents")).body.items[0]?.id, doc.body.id, "nothing was deleted");
    assert.equal((await t.request("DELETE", `/documents/${doc.body.id}`)).status, 200);
  } finally {
    await holder.end().catch(() => undefined);
    await t.close();
  }
});

test("a server that takes a connection and never answers is the busy error to retry, within the connect timeout", async () => {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const { port } = silent.address() as { port: number };
  configurePools({ connectTimeoutMs: 300 });
  const pool = createPool(`postgres://nobody@127.0.0.1:${port}/nothing`);
  try {
    const executor = new PoolExecutor(pool);
    await assert.rejects(executor.query("SELECT 1"), (error: Error) => {
      assert.equal(error.name, "ServerBusyError", error.message);
      assert.match(error.message, /no connection within 0\.3 s/);
      return true;
    });
    await assert.rejects(
      executor.atomic(async (tx) => tx.query("SELECT 1")),
      (error: Error) => error.name === "ServerBusyError",
    );
  } finally {
    configurePools(POOL_DEFAULTS);
    await pool.end();
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});
