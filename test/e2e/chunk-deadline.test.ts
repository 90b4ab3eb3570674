import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH, buildDocx } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";
import { longWord } from "../helpers/synthetic-texts.js";
import { startOpenAiStub } from "../helpers/openai-server.js";

async function uploaded(path: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await runCli(["upload", path, "--json"], env);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).id as string;
}

test("chunking past chunk_timeout_seconds is stopped with an error naming the setting, and nothing is committed", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-chunk-deadline-"));
  try {
    const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
    // A 1 MB unbroken word: about a second and a half of chunking, far past a 0.2 s deadline.
    const path = join(dir, "word.docx");
    writeFileSync(path, await buildDocx([{ p: longWord(1_000_000, "letters", 3) }]));
    const id = await uploaded(path, env);
    const stopped = await runCli(["process", id, "-s", "recursive"], { ...env, CHUNKEVAL_CHUNK_TIMEOUT_SECONDS: "0.2" });
    // A strategy that fails is reported and the command exits 1, as for any failed strategy.
    assert.equal(stopped.code, 1, stopped.stderr);
    assert.match(stopped.stdout, /FAILED recursive: chunking with recursive took longer than chunk_timeout_seconds \(0\.2\)/);
    const listed = JSON.parse((await runCli(["documents", "--json"], env)).stdout) as { items: Array<{ id: string; chunk_counts: Record<string, number> }> };
    assert.deepEqual(listed.items.find((d) => d.id === id)!.chunk_counts, {});
    // The same document under the default deadline: the limit, not the file, stopped it.
    const done = await runCli(["process", id, "-s", "recursive", "--json", "-q"], env);
    assert.equal(done.code, 0, done.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the chunking deadline counts the chunker's own time, not the embedder's it waits for", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-chunk-deadline-"));
  const delayMs = 400;
  const stub = await startOpenAiStub({ delayMs });
  try {
    const env = {
      CHUNKEVAL_DATA_DIR: join(dir, "data"),
      CHUNKEVAL_EMBEDDER: "openai:text-embedding-3-small",
      CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl,
      CHUNKEVAL_OPENAI_API_KEY: "k",
      CHUNKEVAL_EMBED_BATCH_SIZE: "32",
      CHUNKEVAL_CHUNK_TIMEOUT_SECONDS: "1.5",
    };
    const id = await uploaded(HANDBOOK_PATH, env);
    const r = await runCli(["process", id, "-s", "semantic", "--json", "-q"], env);
    assert.equal(r.code, 0, r.stderr);
    // The semantic chunker waited for more embedding calls than its deadline lasts.
    // While it chunked, the semantic strategy waited for every embedding call but those of its
    // chunks (made after chunking, 32 to a call), one call at a time: longer than its deadline.
    const calls = stub.requests.filter((q) => q.path === "/v1/embeddings").length;
    const result = JSON.parse(r.stdout) as { strategies_completed: Array<{ chunks_produced: number }> };
    const chunkCalls = Math.ceil(result.strategies_completed[0]!.chunks_produced / 32);
    const waitedWhileChunkingMs = (calls - chunkCalls) * delayMs;
    assert.ok(waitedWhileChunkingMs > 1500 + delayMs, `the chunker waited only ${waitedWhileChunkingMs} ms`);
  } finally {
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
