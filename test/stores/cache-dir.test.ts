import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import {
  CacheMaintenance,
  CACHE_FILE,
  CACHE_MIGRATIONS,
  EmbeddingCacheRepo,
  CompletionCacheRepo,
  openCacheDatabase,
} from "../../src/stores/sqlite/cache-repos.js";
import { DATABASE_FILE, openDatabase } from "../../src/stores/sqlite/database.js";

test("CI: a fresh data directory with a restored cache folder embeds nothing again", async () => {
  const root = mkdtempSync(join(tmpdir(), "chunkeval-cache-ci-"));
  const kept = join(root, "kept-cache");
  const first = await createWorkspace({ cache_dir: kept });
  try {
    const doc = await first.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await first.app.process(doc.id, ["recursive", "fixed_size"]);
    const computed = (await first.internals.context.embedder()).stats.computed;
    assert.ok(computed > 0, "the first run embeds");
    assert.ok(existsSync(join(kept, CACHE_FILE)), "the cache is its own file under cache_dir");
    assert.ok(!existsSync(join(first.dir, "data", "cache")), "not under the data directory when cache_dir is set");
  } finally {
    await first.cleanup();
  }
  // The next job: the data directory is gone, the cache folder comes back (to another path, as a CI cache restore may).
  const restored = join(root, "restored-cache");
  cpSync(kept, restored, { recursive: true });
  const second = await createWorkspace({ cache_dir: restored });
  try {
    const doc = await second.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await second.app.process(doc.id, ["recursive", "fixed_size"]);
    const stats = (await second.internals.context.embedder()).stats;
    assert.equal(stats.computed, 0, "nothing embedded again");
    assert.ok(stats.cached > 0, "every vector came from the restored cache");
  } finally {
    await second.cleanup();
    rmSync(root, { recursive: true, force: true });
  }
});

test("a vector cached under another cache key (another model version, another endpoint) is not served", () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-cache-key-"));
  const db = openCacheDatabase(join(dir, CACHE_FILE));
  try {
    const cache = new EmbeddingCacheRepo(db);
    cache.putMany({ key: "use 512 with model@0.2.0", name: "use" }, [["h1", Float32Array.of(1, 0)]]);
    assert.deepEqual([...cache.getMany({ key: "use 512 with model@0.2.0", name: "use" }, ["h1"]).values()], [Float32Array.of(1, 0)]);
    assert.equal(cache.getMany({ key: "use 512 with model@0.3.0", name: "use" }, ["h1"]).size, 0);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a data directory from before cache_dir keeps its cached work: the old tables' rows move to the cache file on first use", async () => {
  // Its own embedding cache: the test counts what gets embedded, which the run's warm cache would serve.
  const ws = await createWorkspace({}, {}, { ownCache: true });
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    await ws.app.process(doc.id, ["recursive"]);
    await ws.app.close();
    // Move the cached vectors and a completion back into the main database's tables, as an older chunkeval left them.
    const cachePath = join(ws.dir, "data", "cache", CACHE_FILE);
    const main = openDatabase(join(ws.dir, "data", DATABASE_FILE));
    main.exec(`ATTACH DATABASE '${cachePath}' AS c;
      INSERT INTO embedding_cache (embedder, text_hash, vector) SELECT embedder, text_hash, vector FROM c.embeddings;
      INSERT INTO completion_cache (model, prompt_hash, completion, prompt_tokens, completion_tokens) VALUES ('openai:m', 'p1', 'old reply', 3, 2);
      DETACH DATABASE c;`);
    const moved = (main.prepare("SELECT COUNT(*) AS n FROM embedding_cache").get() as { n: number }).n;
    rmSync(join(ws.dir, "data", "cache"), { recursive: true });

    const completions = new CompletionCacheRepo(openCacheDatabase(join(ws.dir, "legacy-check.sqlite")), main);
    assert.deepEqual(completions.get({ key: "openai:m at somewhere", name: "openai:m" }, "p1"), {
      completion: "old reply",
      promptTokens: 3,
      completionTokens: 2,
    });
    assert.equal((main.prepare("SELECT COUNT(*) AS n FROM completion_cache").get() as { n: number }).n, 0, "moved, not copied");
    main.close();

    const app = await ws.reopen();
    await app.process(doc.id, ["recursive"]);
    const stats = (await ws.internals.context.embedder()).stats;
    assert.equal(stats.computed, 0, "the old table's vectors are used");
    await app.close();
    const cache = openCacheDatabase(cachePath);
    assert.equal((cache.prepare("SELECT COUNT(*) AS n FROM embeddings").get() as { n: number }).n, moved, "every row moved into the cache file");
    cache.close();
    const after = openDatabase(join(ws.dir, "data", DATABASE_FILE));
    assert.equal((after.prepare("SELECT COUNT(*) AS n FROM embedding_cache").get() as { n: number }).n, 0, "and out of the main database");
    after.close();
  } finally {
    await ws.cleanup();
  }
});

test("prune: by age (last use), then the least recently used down to a size; clear by embedder", () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-cache-prune-"));
  const path = join(dir, CACHE_FILE);
  const db = openCacheDatabase(path);
  try {
    const DAY = 86_400_000;
    let now = 100 * DAY;
    const cache = new EmbeddingCacheRepo(db, undefined, () => now);
    const vector = new Float32Array(256); // 1 KB
    const owner = { key: "hash v1", name: "hash" };
    for (let day = 0; day < 10; day++) {
      now = (60 + day) * DAY; // entry eN last used on day 60 + N
      cache.putMany(owner, [[`e${day}`, vector]]);
    }
    cache.putMany({ key: "use v1", name: "use" }, [["u", vector]]);
    now = 75 * DAY;
    cache.getMany(owner, ["e0"]); // used again today: it is recent now
    const maintenance = new CacheMaintenance(db, path);
    const left = () => (db.prepare("SELECT text_hash FROM embeddings ORDER BY text_hash").all() as Array<{ text_hash: string }>).map((r) => r.text_hash);

    assert.equal(maintenance.prune({ olderThanMs: 10 * DAY }, now), 4, "e1-e4 were last used over 10 days ago");
    assert.deepEqual(left(), ["e0", "e5", "e6", "e7", "e8", "e9", "u"]);
    const entryBytes = maintenance.groups().find((g) => g.name === "hash")!.bytes / 6;
    assert.equal(maintenance.prune({ maxBytes: Math.floor(4.5 * entryBytes) }, now), 3, "the 3 least recently used go");
    assert.deepEqual(left(), ["e0", "e8", "e9", "u"]);
    assert.equal(maintenance.prune({ olderThanMs: 30 * DAY, maxBytes: 10 * 1024 ** 2 }, now), 0);
    assert.equal(maintenance.clear({ embedder: "hash" }), 3);
    assert.deepEqual(left(), ["u"]);
    assert.ok(maintenance.fileBytes() > 0);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("clearing and pruning the cache let other processes write between short steps, and the file shrinks; an older cache is switched once", () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-cache-steps-"));
  try {
    const vector = new Float32Array(256); // 1 KB
    const owner = { key: "hash v1", name: "hash" };
    for (const made of ["new", "before incremental compaction"] as const) {
      const path = join(dir, `${made}-${CACHE_FILE}`);
      // A cache file from before: created without incremental auto-vacuum.
      const db = made === "new" ? openCacheDatabase(path) : openDatabase(path, CACHE_MIGRATIONS);
      // Another process's processing run: its writes never wait (busy timeout 0), so a lock held across a step fails them.
      const other = openCacheDatabase(path, { writeWaitMs: 0 });
      try {
        assert.equal(db.pragma("auto_vacuum", { simple: true }), made === "new" ? 2 : 0);
        const cache = new EmbeddingCacheRepo(db);
        cache.putMany(
          owner,
          Array.from({ length: 5000 }, (_, i): [string, Float32Array] => [`e${i}`, vector]),
        );
        const otherCache = new EmbeddingCacheRepo(other);
        let steps = 0;
        const maintenance = new CacheMaintenance(db, path, undefined, () => {
          steps++;
          otherCache.putMany({ key: "use v1", name: "use" }, [[`o${steps}`, vector]]);
        });
        const before = maintenance.fileBytes();
        assert.equal(maintenance.clear({ embedder: "hash" }), 5000);
        // Five steps of rows, then the pages of 5 MB given back 1 MB at a time; an older cache's
        // pages all at once, by the one VACUUM that switches it to incremental compaction.
        assert.ok(steps >= (made === "new" ? 5 + 4 : 5), `${made}: ${steps} steps`);
        assert.equal((other.prepare("SELECT COUNT(*) AS n FROM embeddings").get() as { n: number }).n, steps, "every write between steps went through");
        assert.ok(maintenance.fileBytes() < before / 4, `${made}: ${before} → ${maintenance.fileBytes()} bytes`);
        assert.equal(db.pragma("auto_vacuum", { simple: true }), 2, "incremental from now on");
      } finally {
        other.close();
        db.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a large cache file from before incremental compaction is not rewritten under the write lock; other writes go through", () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-cache-old-"));
  const path = join(dir, CACHE_FILE);
  const db = openDatabase(path, CACHE_MIGRATIONS);
  const other = openCacheDatabase(path, { writeWaitMs: 0 });
  try {
    const vector = new Float32Array(256); // 1 KB
    const cache = new EmbeddingCacheRepo(db);
    // 40 MB of live entries: more than one VACUUM may rewrite at once.
    for (let batch = 0; batch < 40; batch++) {
      cache.putMany(
        { key: "hash v1", name: "hash" },
        Array.from({ length: 1000 }, (_, i): [string, Float32Array] => [`e${batch}-${i}`, vector]),
      );
    }
    cache.putMany({ key: "old v1", name: "old" }, [["x", vector]]);
    const otherCache = new EmbeddingCacheRepo(other);
    let steps = 0;
    const maintenance = new CacheMaintenance(db, path, undefined, () => otherCache.putMany({ key: "use v1", name: "use" }, [[`o${++steps}`, vector]]));
    assert.equal(maintenance.clear({ embedder: "old" }), 1);
    assert.equal(db.pragma("auto_vacuum", { simple: true }), 0, "not switched: its live data is too large to rewrite at once");
    assert.equal((other.prepare("SELECT COUNT(*) AS n FROM embeddings WHERE embedder = 'use'").get() as { n: number }).n, steps);
  } finally {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an existing cache file opens while another process holds its write lock (a prune or clear running)", () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-cache-open-"));
  const path = join(dir, CACHE_FILE);
  openCacheDatabase(path).close();
  const holder = openCacheDatabase(path);
  try {
    holder.exec("BEGIN IMMEDIATE");
    // Opening needs no write lock: without this, it waited 5 s and failed with "database is locked".
    const opened = openCacheDatabase(path, { writeWaitMs: 0 });
    assert.equal((opened.prepare("SELECT COUNT(*) AS n FROM embeddings").get() as { n: number }).n, 0);
    opened.close();
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
