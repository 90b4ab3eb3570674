import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadStrategyModule, locateChunks, MODULE_HASH_OPTION, registerStrategyModules } from "../../src/strategies/strategy-module.js";
import { createStrategyRegistry } from "../../src/strategies/registry.js";
import { ChunkingError, ValidationError } from "../../src/errors.js";
import type { StoredDocument } from "../../src/domain/types.js";
import type { StrategyModule } from "../../src/index.js";
import { countTokens } from "../../src/text/tokens.js";
import { startTestServer } from "../helpers/server.js";
import { loadConfig } from "../../src/config/load.js";
import { chunkOffThread } from "../../src/strategies/offload.js";
import { handbookBytes } from "../helpers/documents.js";

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-strategy-module-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const document = (text: string): StoredDocument => ({
  id: "doc_m",
  filename: "m.docx",
  title: "M",
  format: "docx",
  text,
  blocks: [{ kind: "paragraph", level: 0, text, start: 0, end: text.length }],
  paragraphCount: 1,
  chunkCounts: {},
  createdAt: "",
});

test("locateChunks: strings are found in reading order, overlapping or out of order; spans are checked", () => {
  const text = "alpha beta. alpha beta. gamma delta.";
  // In order: the second "alpha beta." is the one after the first chunk, not the first occurrence.
  assert.deepEqual(locateChunks("m", text, ["alpha beta.", "alpha beta.", "gamma delta."]), [
    { start: 0, end: 11 },
    { start: 12, end: 23 },
    { start: 24, end: 36 },
  ]);
  // Overlapping windows: the next chunk starts inside the previous one.
  assert.deepEqual(locateChunks("m", text, ["alpha beta. alpha", "beta. alpha beta.", "beta. gamma"]), [
    { start: 0, end: 17 },
    { start: 6, end: 23 },
    { start: 18, end: 29 },
  ]);
  // Out of order: searched again from the start of the text.
  assert.deepEqual(locateChunks("m", text, ["gamma", "alpha"]), [
    { start: 24, end: 29 },
    { start: 0, end: 5 },
  ]);
  assert.deepEqual(locateChunks("m", text, [{ start: 0, end: 5 }, "beta", { start: 30, end: 36 }]), [
    { start: 0, end: 5 },
    { start: 6, end: 10 },
    { start: 30, end: 36 },
  ]);
  const refused: Array<[unknown, RegExp]> = [
    ["not a list", /chunk\(\) must return an array of spans or strings, got string/],
    [["alpha", "x".repeat(100)], /m: chunk 2 of 2 is not in the document text: "x{60}…"/],
    [["alpha", "Alpha"], /chunk 2 of 2 is not in the document text: "Alpha"/],
    [[""], /chunk 1 of 1 is an empty string/],
    [["alpha", " "], /chunk 2 of 2 is only white space/],
    [[{ start: 5, end: 6 }], /chunk 1 of 1 is only white space/],
    [[{ start: 5, end: 5 }], /chunk 1 of 1 is not a span of the text: \{start: 5, end: 5\} \(need whole numbers, 0 <= start < end <= 36\)/],
    [[{ start: -1, end: 3 }], /not a span of the text/],
    [[{ start: 0, end: 37 }], /not a span of the text/],
    [[{ start: 0.5, end: 3 }], /not a span of the text/],
    [[42], /chunk 1 of 1 is neither a string nor \{start, end\}: "42"/],
  ];
  for (const [returned, message] of refused) {
    assert.throws(
      () => locateChunks("m", text, returned),
      (e: unknown) => e instanceof ChunkingError && message.test(e.message),
      String(message),
    );
  }
});

test("a loaded module chunks with exact token counts, async or not, and records a hash of its file", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const path = join(dir, "halves.mjs");
    const source = (label: string) => `
      /** @type {import("chunkeval").StrategyModule} */
      export default {
        name: "halves",
        description: "${label}",
        parameters: [{ name: "parts", description: "chunks per document", default: 2 }],
        async chunk({ text, options, title, format, blocks }) {
          if (title !== "M" || format !== "docx" || blocks.length !== 1) throw new Error("input not as documented");
          const size = Math.ceil(text.length / options.parts);
          return Array.from({ length: options.parts }, (_, i) => ({ start: i * size, end: Math.min(text.length, (i + 1) * size) }));
        },
      };`;
    writeFileSync(path, source("first"));
    const definition = await loadStrategyModule(path);
    const strategy = await definition.create({ parts: 3 });
    assert.equal(strategy.module, path);
    assert.equal(strategy.retrieval, "dense");
    const hash = strategy.options[MODULE_HASH_OPTION]!;
    assert.ok(Number.isSafeInteger(hash) && hash > 0);
    assert.deepEqual(definition.parameters, [{ name: "parts", description: "chunks per document", default: 2 }]);
    const text = "One sentence here. Another one there. And a third, much longer, sentence at the end.";
    const drafts = await strategy.chunk({ document: document(text), embed: async () => [] });
    assert.equal(drafts.length, 3);
    for (const d of drafts) {
      assert.equal(d.text, text.slice(d.start, d.end));
      assert.equal(d.tokenCount, countTokens(d.text));
    }
    // The options a worker receives carry the hash; the same file recreates the strategy.
    assert.deepEqual((await definition.create(strategy.options)).options, strategy.options);
    writeFileSync(path, source("edited"));
    const edited = await loadStrategyModule(path);
    assert.equal(edited.description, "edited", "edited contents are imported afresh");
    const editedHash = (await edited.create()).options[MODULE_HASH_OPTION];
    assert.notEqual(editedHash, hash);
    await assert.rejects(edited.create(strategy.options), /halves: the module .*halves\.mjs changed since chunkeval loaded it/);
  } finally {
    cleanup();
  }
});

test("the chunking worker imports the module itself, and refuses a file edited since this thread loaded it", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const path = join(dir, "words.mjs");
    const source = (per: number) => `export default { name: "words", description: "x", chunk: ({ text }) => {
      const words = text.split(" ");
      const out = [];
      for (let i = 0; i < words.length; i += ${per}) out.push(words.slice(i, i + ${per}).join(" "));
      return out;
    } };`;
    writeFileSync(path, source(2));
    const strategy = await (await loadStrategyModule(path)).create();
    const context = { document: document("one two three four five six seven"), embed: async () => [] };
    const drafts = await chunkOffThread(strategy, context, { timeoutSeconds: 30 });
    assert.deepEqual(
      drafts.map((d) => d.text),
      ["one two", "three four", "five six", "seven"],
    );
    writeFileSync(path, source(3));
    await assert.rejects(
      chunkOffThread(strategy, context, { timeoutSeconds: 30 }),
      (e: unknown) => e instanceof ValidationError && /words: the module .* changed since chunkeval loaded it/.test(e.message),
    );
  } finally {
    cleanup();
  }
});

test("modules are checked on load: exports, names, parameters, and clashes", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const cases: Array<[string, RegExp]> = [
      [`export default 42;`, /it exports no strategy/],
      [`export default { name: "all", description: "x", chunk() {} };`, /"all" is not a strategy name/],
      [`export default { name: "x-y", description: "x", chunk() {} };`, /"name" must be lowercase letters, digits and _/],
      [`export default { name: "x", description: "", chunk() {} };`, /"description" must be a non-empty string/],
      [`export default { name: "x", description: "x" };`, /"chunk" must be a function/],
      [`export default { name: "x", description: "x", chunk() {}, parameters: {} };`, /"parameters" must be an array/],
      [`export default { name: "x", description: "x", chunk() {}, parameters: [{ name: "top_k", description: "", default: 1 }] };`, /"top_k" is reserved/],
      [
        `export default { name: "x", description: "x", chunk() {}, ` +
          `parameters: [{ name: "n", description: "", default: 1 }, { name: "n", description: "", default: 2 }] };`,
        /parameter 2 \("n"\): declared twice/,
      ],
      [`export default { name: "x", description: "x", chunk() {}, parameters: [{ name: "n", description: "" }] };`, /"default" must be a finite number/],
      [
        `export default { name: "x", description: "x", chunk() {}, parameters: [{ name: "embedder", description: "", default: 1 }] };`,
        /"embedder" is reserved/,
      ],
      [
        `export default { name: "x", description: "x", chunk() {}, targetTokens: "size", parameters: [{ name: "n", description: "", default: 1 }] };`,
        /"targetTokens", if given, must name one of its parameters; got "size"/,
      ],
      [`throw new Error("boom at import");`, /cannot import it: boom at import/],
    ];
    for (const [i, [source, message]] of cases.entries()) {
      const path = join(dir, `case-${i}.mjs`);
      writeFileSync(path, source);
      await assert.rejects(
        loadStrategyModule(path),
        (e: unknown) => e instanceof ValidationError && e.message.startsWith(`strategy module ${path}: `) && message.test(e.message),
        String(message),
      );
    }
    // The named export `strategy` is accepted as well as the default export.
    writeFileSync(join(dir, "named.mjs"), `export const strategy = { name: "named", description: "x", chunk: ({ text }) => [text] };`);
    writeFileSync(join(dir, "twin.mjs"), `export const strategy = { name: "named", description: "y", chunk: ({ text }) => [text] };`);
    const registry = createStrategyRegistry();
    await registerStrategyModules(registry, ["named.mjs", "named.mjs"], dir);
    assert.equal(registry.names().at(-1), "named");
    await assert.rejects(registerStrategyModules(registry, [join(dir, "twin.mjs")]), /twin\.mjs: the name "named" is taken by/);
  } finally {
    cleanup();
  }
});

test("strategy_modules: a file's list is relative to the file; the variable splits at commas; flags replace both", () => {
  const { dir, cleanup } = tempDir();
  try {
    const config = join(dir, "conf", "chunkeval.yaml");
    mkdirSync(join(dir, "conf"));
    writeFileSync(config, "strategy_modules:\n  - mods/a.mjs\n  - /abs/b.mjs\n");
    const cwd = join(dir, "elsewhere");
    const fromFile = loadConfig({ cwd, configFile: config, env: {} });
    assert.deepEqual(fromFile.errors, []);
    assert.deepEqual(fromFile.config.strategyModules, [join(dir, "conf", "mods", "a.mjs"), "/abs/b.mjs"]);
    const fromEnv = loadConfig({ cwd, configFile: config, env: { CHUNKEVAL_STRATEGY_MODULES: "x.mjs, y.mjs" } });
    assert.deepEqual(fromEnv.config.strategyModules, [join(cwd, "x.mjs"), join(cwd, "y.mjs")]);
    assert.equal(fromEnv.sources.strategy_modules, "env");
    const fromFlags = loadConfig({ cwd, configFile: config, env: { CHUNKEVAL_STRATEGY_MODULES: "x.mjs" }, flags: { strategy_modules: ["z.mjs"] } });
    assert.deepEqual(fromFlags.config.strategyModules, [join(cwd, "z.mjs")]);
    assert.deepEqual(loadConfig({ cwd, env: {}, flags: { strategy_modules: [] } }).config.strategyModules, []);
    writeFileSync(config, "strategy_modules: 3\n");
    assert.match(loadConfig({ cwd, configFile: config, env: {} }).errors.join(), /strategy_modules \(file\): 3 is not a valid list of paths/);
  } finally {
    cleanup();
  }
});

test("serve: GET /strategies lists a module and POST /documents/:id/process runs it in the chunking worker", async () => {
  const { dir, cleanup } = tempDir();
  const path = join(dir, "paragraphs.mjs");
  const module: StrategyModule = {
    name: "paragraphs",
    description: "one chunk per block",
    parameters: [{ name: "first", description: "blocks kept", default: 1000 }],
    chunk: ({ text, blocks, options }) => blocks.slice(0, options.first).map((b) => text.slice(b.start, b.end)),
  };
  writeFileSync(path, `export default { ...${JSON.stringify({ ...module, chunk: undefined })}, chunk: ${module.chunk.toString()} };`);
  const t = await startTestServer({}, { CHUNKEVAL_STRATEGY_MODULES: path });
  try {
    const listed = await t.request("GET", "/strategies");
    assert.deepEqual(
      listed.body.strategies.find((s: any) => s.name === "paragraphs"),
      { name: "paragraphs", description: "one chunk per block", parameters: module.parameters },
    );
    const id = (await t.upload("handbook.docx", handbookBytes())).body.id;
    const processed = await t.request("POST", `/documents/${id}/process`, { strategies: ["paragraphs", "paragraphs@first=10"] });
    assert.equal(processed.status, 200, JSON.stringify(processed.body));
    assert.deepEqual(processed.body.strategies_failed, []);
    const counts = processed.body.strategies_completed.map((s: any) => [s.strategy, s.chunks_produced]);
    assert.equal(counts[1][0], "paragraphs@first=10");
    assert.equal(counts[1][1], 10);
    assert.ok(counts[0][1] > 10);
  } finally {
    await t.close();
    cleanup();
  }
});
