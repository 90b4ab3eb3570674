import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

/**
 * A user's chunker as a file the test writes: groups of `size` blocks, returned as strings
 * (which chunkeval locates in the text). `extra` blocks are added to every group, so an edited
 * module with the same name and parameters makes other chunks.
 */
function moduleSource(extra = 0, name = "block_groups"): string {
  return `
export const strategy = {
  name: ${JSON.stringify(name)},
  description: "groups of size blocks, as strings",
  parameters: [{ name: "size", description: "blocks per chunk", default: 2 }],
  validate(options) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new Error("size must be a whole number >= 1");
  },
  chunk({ text, blocks, options }) {
    const per = options.size + ${extra};
    const out = [];
    for (let i = 0; i < blocks.length; i += per) {
      const group = blocks.slice(i, i + per);
      out.push(text.slice(group[0].start, group[group.length - 1].end));
    }
    return out;
  },
};
`;
}

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-module-"));
  const modulePath = join(dir, "block-groups.mjs");
  writeFileSync(modulePath, moduleSource());
  writeFileSync(
    join(dir, "questions.json"),
    JSON.stringify([
      { question: "How are members billed?", expected_answer: "Every month." },
      { question: "What does the wind project consist of?", expected_answer: "Two turbines." },
    ]),
  );
  return {
    dir,
    modulePath,
    env: { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test("a strategy module is listed with its parameters, from the flag, the variable or a config file", async () => {
  const ws = workspace();
  try {
    const listed = await runCli(["strategies", "--json", "--strategy-module", ws.modulePath], ws.env);
    assert.equal(listed.code, 0, listed.stderr);
    const mine = JSON.parse(listed.stdout).strategies.find((s: any) => s.name === "block_groups");
    assert.deepEqual(mine, {
      name: "block_groups",
      description: "groups of size blocks, as strings",
      parameters: [{ name: "size", description: "blocks per chunk", default: 2 }],
    });
    const text = await runCli(["strategies"], { ...ws.env, CHUNKEVAL_STRATEGY_MODULES: ws.modulePath });
    assert.match(text.stdout, /\nblock_groups: groups of size blocks, as strings\n {4}size = 2 {2}\(blocks per chunk\)/);
    // In a config file, paths are relative to the file's folder, wherever chunkeval runs.
    mkdirSync(join(ws.dir, "project"));
    writeFileSync(join(ws.dir, "project", "chunkeval.config.json"), JSON.stringify({ strategy_modules: ["../block-groups.mjs"] }));
    const fromConfig = await runCli(["--config", join(ws.dir, "project", "chunkeval.config.json"), "strategies", "--json"], ws.env, tmpdir());
    assert.equal(fromConfig.code, 0, fromConfig.stderr);
    assert.ok(JSON.parse(fromConfig.stdout).strategies.some((s: any) => s.name === "block_groups"));
    const config = await runCli(["config", "--json", "--strategy-module", "block-groups.mjs"], ws.env, ws.dir);
    assert.equal(JSON.parse(config.stdout).settings.find((s: any) => s.key === "strategy_modules").value, ws.modulePath);
  } finally {
    ws.cleanup();
  }
});

test("process and bench run a strategy module like a built-in strategy, variants included", async () => {
  const ws = workspace();
  try {
    const flags = ["--strategy-module", ws.modulePath];
    const doc = JSON.parse((await runCli(["upload", HANDBOOK_PATH, "--json"], ws.env)).stdout);
    const proc = await runCli([...flags, "process", doc.id, "-s", "block_groups,block_groups@size=4", "--json"], ws.env);
    assert.equal(proc.code, 0, proc.stderr);
    const result = JSON.parse(proc.stdout);
    assert.deepEqual(result.strategies_failed, []);
    const [two, four] = result.strategies_completed;
    assert.deepEqual([two.strategy, four.strategy], ["block_groups", "block_groups@size=4"]);
    assert.ok(two.chunks_produced > four.chunks_produced && four.chunks_produced > 1);

    const bench = await runCli(
      [...flags, "bench", doc.id, "--questions", join(ws.dir, "questions.json"), "-s", "recursive,block_groups@size=3", "--yes", "--json"],
      ws.env,
    );
    assert.equal(bench.code, 0, bench.stderr);
    const experiment = JSON.parse(bench.stdout);
    assert.deepEqual(experiment.strategies_used, ["recursive", "block_groups@size=3"]);
    assert.ok(experiment.aggregate_metrics["block_groups@size=3"]);
    const sweep = await runCli(
      [...flags, "bench", doc.id, "--questions", join(ws.dir, "questions.json"), "--sweep", "block_groups:size=2,5", "--yes", "--json"],
      ws.env,
    );
    assert.equal(sweep.code, 0, sweep.stderr);
    assert.deepEqual(JSON.parse(sweep.stdout).strategies_used, ["block_groups", "block_groups@size=5"]);

    const badValue = await runCli([...flags, "process", doc.id, "-s", "block_groups@size=0"], ws.env);
    assert.equal(badValue.code, 2);
    assert.match(badValue.stderr, /block_groups@size=0.*block_groups: size must be a whole number >= 1/);
    const unknown = await runCli([...flags, "process", doc.id, "-s", "block_groups@width=3"], ws.env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown parameter "width" \(valid for block_groups: size, embedder, retrieval, top_k\)/);
  } finally {
    ws.cleanup();
  }
});

test("an edited strategy module is processed again, never answered from the old module's chunks", async () => {
  const ws = workspace();
  try {
    const flags = ["--strategy-module", ws.modulePath];
    const doc = JSON.parse((await runCli(["upload", HANDBOOK_PATH, "--json"], ws.env)).stdout);
    const countAfterBench = async () => {
      const bench = await runCli([...flags, "bench", doc.id, "--questions", join(ws.dir, "questions.json"), "-s", "block_groups", "--json"], ws.env);
      assert.equal(bench.code, 0, bench.stderr);
      const listed = JSON.parse((await runCli(["documents", "--json"], ws.env)).stdout);
      return listed.items.find((d: any) => d.id === doc.id).chunk_counts.block_groups as number;
    };
    const before = await countAfterBench();
    // Same name, same parameters and defaults, another chunk function.
    writeFileSync(ws.modulePath, moduleSource(3));
    const after = await countAfterBench();
    assert.ok(after < before, `the edited module's chunks are used (${before} before, ${after} after)`);
  } finally {
    ws.cleanup();
  }
});

test("a chunk string that is not in the text, a bad export and a built-in name are clear errors", async () => {
  const ws = workspace();
  try {
    const doc = JSON.parse((await runCli(["upload", HANDBOOK_PATH, "--json"], ws.env)).stdout);
    const invented = join(ws.dir, "invented.mjs");
    writeFileSync(
      invented,
      `export default { name: "invented", description: "makes text up", chunk: ({ text }) => [text.slice(0, 40), ` +
        `"This sentence is nowhere in the handbook, not even close to it, and it goes on."] };`,
    );
    const proc = await runCli(["--strategy-module", invented, "process", doc.id, "-s", "invented", "--json"], ws.env);
    const failed = JSON.parse(proc.stdout).strategies_failed;
    assert.equal(failed.length, 1, proc.stdout);
    assert.match(failed[0].error, /invented: chunk 2 of 2 is not in the document text: "This sentence is nowhere in the handbook, not even close to…"/);

    const bad = join(ws.dir, "bad.mjs");
    writeFileSync(bad, `export default { name: "Bad Name", description: "x", chunk: () => [] };`);
    const badRun = await runCli(["--strategy-module", bad, "strategies"], ws.env);
    assert.equal(badRun.code, 2);
    assert.match(badRun.stderr, new RegExp(`strategy module ${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: "name" must be lowercase letters`));
    writeFileSync(bad, `export const chunker = { name: "x" };`);
    const noExport = await runCli(["--strategy-module", bad, "process", doc.id, "-s", "recursive"], ws.env);
    assert.equal(noExport.code, 2);
    assert.match(noExport.stderr, /bad\.mjs: it exports no strategy/);
    writeFileSync(bad, `export default { name: "broken", description: "x", chunk() {} `);
    const syntax = await runCli(["--strategy-module", bad, "strategies"], ws.env);
    assert.equal(syntax.code, 2);
    assert.match(syntax.stderr, /bad\.mjs: cannot import it: /);
    const missing = await runCli(["--strategy-module", join(ws.dir, "nowhere.mjs"), "strategies"], ws.env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nowhere\.mjs: cannot read it \(ENOENT\)/);

    writeFileSync(join(ws.dir, "clash.mjs"), moduleSource(0, "recursive"));
    const clash = await runCli(["--strategy-module", join(ws.dir, "clash.mjs"), "process", doc.id, "-s", "recursive"], ws.env);
    assert.equal(clash.code, 2);
    assert.match(clash.stderr, /clash\.mjs: the name "recursive" is taken by a built-in strategy; choose another/);
  } finally {
    ws.cleanup();
  }
});

test("a strategy module whose import never settles, or loops when it loads, is an error naming it (exit 2), not exit 13 or a hang", async () => {
  const ws = workspace();
  try {
    const never = join(ws.dir, "never.mjs");
    writeFileSync(never, `await new Promise(() => {});\nexport default { name: "never", description: "x", chunk: () => [] };`);
    const pending = await runCli(["--strategy-module", never, "strategies"], ws.env);
    assert.equal(pending.code, 2, pending.stderr);
    assert.match(pending.stderr, /strategy module .*never\.mjs: importing it never finished/);
    const loop = join(ws.dir, "loop.mjs");
    writeFileSync(loop, `while (true) {}\nexport default { name: "loop", description: "x", chunk: () => [] };`);
    const started = Date.now();
    const looping = await runCli(["--strategy-module", loop, "strategies"], ws.env);
    assert.equal(looping.code, 2, looping.stderr);
    assert.match(looping.stderr, /strategy module .*loop\.mjs: importing it did not finish within 10 s/);
    assert.ok(Date.now() - started < 60_000, "within the deadline, not a hang");
  } finally {
    ws.cleanup();
  }
});
