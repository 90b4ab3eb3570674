import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import type { MetadataStore } from "../../src/domain/ports/metadata-store.js";
import type { CacheMaintenance } from "../../src/domain/ports/caches.js";
import { openPostgresCacheMaintenance } from "../../src/stores/postgres/cache-maintenance.js";
import { openPostgresStore } from "../../src/stores/postgres/store.js";
import { testPostgres, type PostgresServer } from "../helpers/postgres.js";

let server: PostgresServer;
let store: MetadataStore;
let cache: CacheMaintenance;
let uri: string;
before(async () => {
  server = await testPostgres();
  uri = await server.createDatabase();
  store = await openPostgresStore(uri.replace("chunkeval@", "chunkeval:secret@"));
  cache = openPostgresCacheMaintenance(uri.replace("chunkeval@", "chunkeval:secret@"));
});
after(async () => {
  await cache.close();
  await store.close();
});

const hash = { key: "hash@1", name: "hash" };
const model = { key: "m@1", name: "m" };

test("cache maintenance on PostgreSQL: groups, prune by age and by size (least recently used first), clear by embedder", async () => {
  assert.ok(!cache.location.includes("secret"), cache.location);
  const vector = new Float32Array(4); // 16 bytes
  await store.embeddingCache.putMany(hash, [["a", vector]]);
  await store.embeddingCache.putMany(hash, [["b", vector]]);
  await store.completionCache.put(model, "p", { completion: "yes", promptTokens: 1, completionTokens: 1 });
  // Last used at 1, 2 and 3 s: the order pruning by size goes in.
  await run(uri, `UPDATE embeddings SET last_used_ms = CASE text_hash WHEN 'a' THEN 1000 ELSE 2000 END`);
  await run(uri, `UPDATE completions SET last_used_ms = 3000`);
  const groups = await cache.groups();
  assert.deepEqual(
    groups.map((g) => [g.kind, g.name, g.entries, g.bytes]),
    [
      // 16 + 1 + 6 + 4 + 8 per vector; 3 + 1 + 3 + 1 + 24 for the completion.
      ["embeddings", "hash", 2, 70],
      ["completions", "m", 1, 32],
    ],
  );
  assert.ok((await cache.fileBytes()) > 0);
  assert.equal(await cache.legacyEntries(), 0);
  const lastUse = groups[0]!.lastUsedMs;
  assert.equal(await cache.prune({ olderThanMs: 60_000 }, lastUse + 1000), 0, "nothing is a minute old");
  // 102 bytes in all: down to 70 removes the oldest entries until 32 bytes are gone (two 35-byte vectors: one is not enough... it is: 35 >= 32).
  assert.equal(await cache.prune({ maxBytes: 70 }, lastUse + 1000), 1);
  assert.equal(
    (await cache.groups()).reduce((n, g) => n + g.entries, 0),
    2,
  );
  assert.equal(await cache.clear({ embedder: "hash" }), 1);
  assert.deepEqual(
    (await cache.groups()).map((g) => g.kind),
    ["completions"],
  );
  assert.equal(await cache.clear(), 1);
  assert.deepEqual(await cache.groups(), []);
});

async function run(connectionString: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  await client.query(sql);
  await client.end();
}

test("cache maintenance on a database no chunkeval has opened sees an empty cache and creates nothing", async () => {
  const empty = await server.createDatabase();
  const maintenance = openPostgresCacheMaintenance(empty);
  try {
    assert.deepEqual(await maintenance.groups(), []);
    assert.equal(await maintenance.fileBytes(), 0);
    assert.equal(await maintenance.clear(), 0);
    assert.equal(await maintenance.prune({ maxBytes: 0 }), 0);
  } finally {
    await maintenance.close();
  }
  const client = new pg.Client({ connectionString: empty });
  await client.connect();
  const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
  await client.end();
  assert.equal(rows[0].n, 0);
});
