import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

test("chunkeval cache: shows the file under CHUNKEVAL_CACHE_DIR with entries per embedder, prunes, clears; bad arguments exit 2", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-cache-cli-"));
  const cacheDir = join(dir, ".chunkeval-cache");
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_CACHE_DIR: cacheDir };
  try {
    const doc = JSON.parse((await runCli(["upload", HANDBOOK_PATH, "--json"], env)).stdout).id as string;
    assert.equal((await runCli(["process", doc, "-s", "recursive", "--json"], env)).code, 0);
    assert.ok(existsSync(join(cacheDir, "cache.sqlite")));

    const shown = await runCli(["cache", "--json"], env);
    assert.equal(shown.code, 0, shown.stderr);
    const report = JSON.parse(shown.stdout);
    assert.equal(report.path, join(cacheDir, "cache.sqlite"));
    assert.ok(report.file_bytes > 0);
    assert.equal(report.groups.length, 1);
    assert.deepEqual({ kind: report.groups[0].kind, name: report.groups[0].name }, { kind: "embeddings", name: "hash" });
    assert.ok(report.groups[0].entries >= 20, "the chunks' vectors are cached");
    const table = await runCli(["cache"], env);
    assert.match(table.stdout, new RegExp(`cache: ${join(cacheDir, "cache.sqlite").replace(/[.\\/]/g, "\\$&")} \\(\\d+\\.\\d KB on disk\\)`));
    assert.match(table.stdout, /embeddings .*│ hash .*│ \d+ /);

    const recent = await runCli(["cache", "prune", "--older-than", "30d"], env);
    assert.equal(recent.code, 0, recent.stderr);
    assert.match(recent.stdout, /^removed 0 entries; the cache is now/, "everything was used just now");
    const shrunk = await runCli(["cache", "prune", "--max-size", "10KB", "--json"], env);
    assert.equal(shrunk.code, 0, shrunk.stderr);
    const afterPrune = JSON.parse((await runCli(["cache", "--json"], env)).stdout);
    assert.equal(JSON.parse(shrunk.stdout).removed, report.groups[0].entries - afterPrune.groups[0].entries);
    assert.ok(afterPrune.groups[0].bytes <= 10 * 1024, "the entries fit the size asked for");

    // Another embedder's entries only: the hash vectors stay (the global --embedder option must not swallow the filter).
    const other = await runCli(["cache", "clear", "--embedder", "nope", "--json"], env);
    assert.equal(other.code, 0, other.stderr);
    assert.equal(JSON.parse(other.stdout).removed, 0);
    assert.deepEqual(JSON.parse((await runCli(["cache", "--json"], env)).stdout).groups, afterPrune.groups, "nothing else was removed");
    const cleared = await runCli(["cache", "clear", "--embedder", "hash"], env);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.deepEqual(JSON.parse((await runCli(["cache", "--json"], env)).stdout).groups, []);

    for (const [args, message] of [
      [["cache", "prune"], /cache prune needs --older-than AGE, --max-size SIZE or both/],
      [["cache", "prune", "--older-than", "soon"], /--older-than takes an age like 30d/],
      [["cache", "prune", "--max-size", "-5MB"], /--max-size takes a size like 200MB/],
      [["cache", "wipe"], /too many arguments for 'cache'/],
    ] as const) {
      const r = await runCli([...args], env);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
