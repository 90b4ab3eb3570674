import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChunkeval } from "../../src/chunkeval.js";
import { describeConfig, loadConfig } from "../../src/config/load.js";
import { SETTINGS } from "../../src/config/schema.js";
import { ValidationError } from "../../src/errors.js";

test("the configuration page's table (docs/configuration.md) lists exactly the declared settings, with their variables", () => {
  const readme = readFileSync("docs/configuration.md", "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 5));
  const rows = section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| file key") && !line.startsWith("|---"));
  const documented = rows.map((row) => row.split("|")[2]!.trim()).filter((cell) => cell !== "(file only)");
  const declared = SETTINGS.map((s) => (s.alsoEnv ? `\`${s.env}\` or \`${s.alsoEnv}\`` : `\`${s.env}\``));
  assert.deepEqual([...documented].sort(), [...declared].sort());
  for (const s of SETTINGS.filter((s) => !s.secret))
    assert.ok(
      rows.some((row) => row.startsWith(`| \`${s.key}\` |`)),
      `${s.key} has its file key in the table`,
    );
});

test("one declaration drives precedence, defaults, bounds and chunkeval config", () => {
  const cwd = mkdtempSync(join(tmpdir(), "chunkeval-config-"));
  try {
    writeFileSync(join(cwd, "chunkeval.config.json"), JSON.stringify({ top_k: 7, max_upload_mb: 3, ingestion_max_chunks: 0, parse_memory_mb: 10 }));
    const loaded = loadConfig({ cwd, env: { CHUNKEVAL_TOP_K: "9", OPENAI_API_KEY: "sk-secret-1234" }, flags: { embedder: "hash" } });
    assert.deepEqual(loaded.errors, []);
    const c = loaded.config;
    assert.equal(c.topK, 9, "environment over file");
    assert.equal(c.embedder, "hash", "flag over everything");
    assert.equal(c.maxUploadMb, 3, "file over default");
    assert.equal(c.ingestion.maxChunks, 1, "raised to its lower bound");
    assert.equal(c.parsing.memoryMb, 64);
    // A timeout past what a timer holds (about 24.8 days) would fire at once: lowered to its upper bound.
    const long = loadConfig({ cwd, env: { CHUNKEVAL_CHUNK_TIMEOUT_SECONDS: "1e9", INGESTION_TIMEOUT_SECONDS: "1e12" } }).config;
    assert.deepEqual([long.chunkTimeoutSeconds, long.ingestion.timeoutSeconds], [2_000_000, 2_000_000]);
    assert.equal(c.generator, "extractive", "default");
    assert.equal(c.vectorStoreUri, join(cwd, ".chunkeval", "lancedb"), "a default derived from data_dir");
    assert.equal(c.openai.apiKey, "sk-secret-1234");
    const rows = describeConfig(loaded);
    assert.deepEqual(
      rows.map((r) => r.key),
      SETTINGS.map((s) => s.key),
    );
    const key = rows.find((r) => r.key === "openai_api_key")!;
    assert.deepEqual([key.value, key.source, key.env], ["********", "env", "OPENAI_API_KEY"]);
    assert.equal(rows.find((r) => r.key === "top_k")!.source, "env");
    assert.equal(rows.find((r) => r.key === "hf_model_dir")!.value, "(not set)");
    const bad = loadConfig({ cwd, env: { CHUNKEVAL_TOP_K: "500", CHUNKEVAL_EMBED_BATCH_SIZE: "many" } });
    assert.equal(bad.errors.length, 2, bad.errors.join("; "));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test("strategy options and the ingestion strategy are checked at start, before anything is written", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "chunkeval-config-"));
  try {
    writeFileSync(join(cwd, "chunkeval.config.json"), JSON.stringify({ strategies: { recursive: { chunk_size: 100, chunk_overlap: 200 }, sliding: {} } }));
    const { config } = loadConfig({ cwd, env: { INGESTION_STRATEGY: "semantik" }, flags: { embedder: "hash" } });
    await assert.rejects(createChunkeval(config), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.match(error.message, /strategies\.recursive: recursive: chunk_overlap must be/);
      assert.match(error.message, /strategies\.sliding: unknown strategy "sliding"/);
      assert.match(error.message, /ingestion_strategy: unknown strategy "semantik"/);
      return true;
    });
    assert.throws(() => readFileSync(join(cwd, ".chunkeval", "chunkeval.sqlite")), "no data directory was created");
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});
