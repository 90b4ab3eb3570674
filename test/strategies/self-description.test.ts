// Issue 37 item 4: a strategy describes itself (its target size in tokens, whether chunking calls a chat
// model or embeds every sentence), so the cost model and chunk health read the definition instead of
// guessing from the strategy's name or its options' names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStrategyRegistry } from "../../src/strategies/registry.js";
import { targetSize } from "../../src/strategies/strategy.js";
import { loadStrategyModule } from "../../src/strategies/strategy-module.js";

test("every built-in strategy declares its target size; the parent-child one its children's, which are searched", async () => {
  const registry = createStrategyRegistry();
  const sizes: Record<string, unknown> = {};
  for (const name of registry.names()) {
    const definition = registry.get(name);
    sizes[name] = targetSize(definition, (await definition.create()).options);
  }
  assert.deepEqual(sizes, {
    fixed_size: { size: 256, overlap: 32 },
    recursive: { size: 256, overlap: 32 },
    semantic: { size: 512, overlap: 0 },
    semantic_parent_child: { size: 96, overlap: 16 },
    contextual_retrieval: { size: 256, overlap: 32 },
    structure: { size: 512, overlap: 0 },
  });
  const costly = (key: "callsLlm" | "embedsSentences") => registry.names().filter((n) => registry.get(n)[key] === true);
  assert.deepEqual(costly("callsLlm"), ["contextual_retrieval"]);
  assert.deepEqual(costly("embedsSentences"), ["semantic", "semantic_parent_child"]);
});

test("a user's module declares its own target (targetTokens), or has none: no option name is guessed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-self-description-"));
  try {
    const module = (extra: string) =>
      `export default { name: "windows", description: "x", chunk: ({ text }) => [text], ${extra}` +
      `parameters: [{ name: "chunk_size", description: "", default: 200 }, { name: "shared", description: "", default: 20 }] };`;
    writeFileSync(join(dir, "declared.mjs"), module(`targetTokens: "chunk_size", overlapTokens: "shared", `));
    writeFileSync(join(dir, "silent.mjs"), module(""));
    const declared = await loadStrategyModule(join(dir, "declared.mjs"));
    assert.deepEqual(targetSize(declared, (await declared.create({ chunk_size: 300 })).options), { size: 300, overlap: 20 });
    // A parameter named chunk_size says nothing by its name alone.
    const silent = await loadStrategyModule(join(dir, "silent.mjs"));
    assert.equal(targetSize(silent, (await silent.create()).options), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
