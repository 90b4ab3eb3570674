import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { buildProgram } from "../../src/transports/cli/program.js";
import { BIN } from "../helpers/cli.js";

const RECORDER = fileURLToPath(new URL("../helpers/record-imports.mjs", import.meta.url));

/**
 * What `--help`, `--version` and `config` must not load (docs/testing.md "Tests and measurements", bench:cli): the document parsers'
 * libraries, the tokenizer's rank table, models, LanceDB, SQLite, the HTTP server, the core itself. The format registry
 * (parsers/registry.ts and the format modules it lists, whose libraries load on first use) is allowed: the help's format lists come from it.
 */
const HEAVY_PACKAGES = [
  ...["gpt-tokenizer", "mammoth", "word-extractor", "cfb", "htmlparser2", "marked", "pdfjs-dist", "@lancedb", "apache-arrow"],
  ...["fastify", "@fastify", "better-sqlite3", "@energetic-ai", "openai", "nunjucks", "ora", "stemmer"],
];
const HEAVY = [
  new RegExp(`/node_modules/(${HEAVY_PACKAGES.join("|")})/`),
  /\/dist\/parsers\/parser\.js$/,
  /\/dist\/embedders\//,
  /\/dist\/text\/bpe\.js$/,
  /\/dist\/chunkeval\.js$/,
];

/** The module URLs the built CLI resolves while running `args`, with its exit code. */
function loadedModules(args: string[], dataDir: string): { code: number | null; heavy: string[]; all: string[] } {
  const record = join(dataDir, `imports-${args.join("_").replace(/[^a-z_-]/gi, "")}.txt`);
  const r = spawnSync(process.execPath, ["--import", RECORDER, BIN, ...args], {
    env: { ...process.env, CHUNKEVAL_RECORD_IMPORTS: record, CHUNKEVAL_DATA_DIR: join(dataDir, "data") },
    encoding: "utf8",
  });
  const all = readFileSync(record, "utf8").split("\n").filter(Boolean);
  return { code: r.status, heavy: [...new Set(all.filter((url) => HEAVY.some((h) => h.test(url))))], all };
}

/** Every command's path, e.g. ["bench"], ["collections", "add"]. */
function commandPaths(command: Command, prefix: string[] = []): string[][] {
  return command.commands.flatMap((c) => [[...prefix, c.name()], ...commandPaths(c, [...prefix, c.name()])]);
}

test("--help, --version, config and every command's --help load no parser, tokenizer, model, store or server", () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-start-"));
  try {
    const runs = [["--help"], ["--version"], ["config"], ["config", "--json"], ...commandPaths(buildProgram()).map((path) => [...path, "--help"])];
    assert.ok(runs.length > 20, "the command tree was read");
    for (const args of runs) {
      const { code, heavy } = loadedModules(args, dir);
      assert.equal(code, 0, `chunkeval ${args.join(" ")} exits 0`);
      assert.deepEqual(heavy, [], `chunkeval ${args.join(" ")} loads only commander and the configuration`);
    }
    // Commands that open the stores and count nothing load no format parser's library, no tokenizer
    // table and no report engine: those load on first use (src/lazy-require.ts).
    for (const args of [["jobs", "list"], ["documents"]]) {
      const { code, heavy } = loadedModules(args, dir);
      assert.equal(code, 0, `chunkeval ${args.join(" ")} exits 0`);
      const libraries = heavy.filter((url) =>
        /\/node_modules\/(gpt-tokenizer\/(cjs|esm)\/(main|bpeRanks)|mammoth|word-extractor|cfb|htmlparser2|marked|nunjucks)\//.test(url),
      );
      assert.deepEqual(libraries, [], `chunkeval ${args.join(" ")} loads them`);
    }
    // The recorder sees what a real command loads: the check above can fail.
    const real = loadedModules(["strategies", "--json"], dir);
    assert.equal(real.code, 0);
    assert.ok(
      real.heavy.some((url) => url.includes("/gpt-tokenizer/")),
      `strategies loads the tokenizer, and the recorder sees it: ${real.heavy.join(", ")}`,
    );
    // ...and what src/lazy-require.ts loads on first use too (on this thread: parsing runs in a worker the recorder does not enter).
    const lazy = fileURLToPath(new URL("../../dist/lazy-require.js", import.meta.url));
    const record = join(dir, "imports-lazy.txt");
    const loaded = spawnSync(process.execPath, ["--import", RECORDER, "-e", `import(${JSON.stringify(lazy)}).then((m) => m.lazyRequire("nunjucks")())`], {
      env: { ...process.env, CHUNKEVAL_RECORD_IMPORTS: record },
    });
    assert.equal(loaded.status, 0, String(loaded.stderr));
    assert.ok(readFileSync(record, "utf8").includes("/node_modules/nunjucks/"), "the recorder sees a module loaded by lazyRequire");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
