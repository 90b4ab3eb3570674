import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
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

/**
 * Runs the built CLI's program (dist/transports/cli/main.js's modules: run.js and warnings.js) on
 * each of `runs` in turn, in one process under the import recorder, and returns, per run, its exit
 * code and the module URLs first resolved while it ran, and the heavy modules resolved after the
 * last run (`late`: a load a run started and did not wait for). A module loaded by an earlier run
 * is not listed again under a later one, so a run that would load a heavy module on its own is
 * still seen loading it, under itself, under an earlier run or late: when none lists one, none
 * would alone. One process for some sixty commands in place of a process each (about 40 s of
 * processor time a test run).
 */
interface Loaded {
  args: string[];
  code: number;
  heavy: string[];
}
function loadedModules(runs: string[][], dataDir: string): { runs: Loaded[]; late: string[] } {
  mkdirSync(dataDir, { recursive: true });
  const record = join(dataDir, "imports.txt");
  const built = (path: string) => JSON.stringify(fileURLToPath(new URL(`../../dist/transports/cli/${path}`, import.meta.url)));
  const driver = `
    const { appendFileSync } = await import("node:fs");
    const { Writable } = await import("node:stream");
    const { main } = await import(${built("run.js")});
    await import(${built("warnings.js")});
    const record = process.env.CHUNKEVAL_RECORD_IMPORTS;
    const codes = [];
    for (const args of JSON.parse(process.env.RUNS)) {
      appendFileSync(record, "# run\\n");
      const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
      const io = { stdout: sink, stderr: sink, env: process.env, stdinIsTTY: false, exitCode: undefined };
      codes.push(await main(["node", ${JSON.stringify(BIN)}, ...args], io));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    appendFileSync(record, "# end\\n");
    process.stdout.write(JSON.stringify(codes));`;
  const r = spawnSync(process.execPath, ["--import", RECORDER, "--input-type=module", "-e", driver], {
    env: { ...process.env, CHUNKEVAL_RECORD_IMPORTS: record, CHUNKEVAL_DATA_DIR: join(dataDir, "data"), RUNS: JSON.stringify(runs) },
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  const codes = JSON.parse(r.stdout) as number[];
  assert.equal(codes.length, runs.length, "every run ended");
  const heavyOf = (text: string) => [...new Set(text.split("\n").filter((url) => url && HEAVY.some((h) => h.test(url))))];
  const [during, after = ""] = readFileSync(record, "utf8").split("# end\n");
  // The URLs before the first marker are the program's own modules, loaded before any run: the first run's too.
  const [before, ...segments] = during!.split("# run\n");
  return {
    runs: runs.map((args, i) => ({ args, code: codes[i]!, heavy: heavyOf(`${i === 0 ? before : ""}${segments[i] ?? ""}`) })),
    late: heavyOf(after),
  };
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
    const help = loadedModules(runs, join(dir, "help"));
    for (const { args, code, heavy } of help.runs) {
      assert.equal(code, 0, `chunkeval ${args.join(" ")} exits 0`);
      assert.deepEqual(heavy, [], `chunkeval ${args.join(" ")} loads only commander and the configuration`);
    }
    assert.deepEqual(help.late, [], "nothing heavy loads after the commands ended");
    // bin/chunkeval.js itself, the process's entry point (main.js), loads nothing heavy either.
    const entry = join(dir, "imports-entry.txt");
    const version = spawnSync(process.execPath, ["--import", RECORDER, BIN, "--version"], {
      env: { ...process.env, CHUNKEVAL_RECORD_IMPORTS: entry, CHUNKEVAL_DATA_DIR: join(dir, "data") },
    });
    assert.equal(version.status, 0, String(version.stderr));
    assert.deepEqual(
      readFileSync(entry, "utf8")
        .split("\n")
        .filter((url) => url && HEAVY.some((h) => h.test(url))),
      [],
      "chunkeval --version through bin/chunkeval.js",
    );
    // Commands that open the stores and count nothing (jobs list, documents) load no format
    // parser's library, no tokenizer table and no report engine: those load on first use
    // (src/lazy-require.ts).
    const library = (url: string) =>
      /\/node_modules\/(gpt-tokenizer\/(cjs|esm)\/(main|bpeRanks)|mammoth|word-extractor|cfb|htmlparser2|marked|nunjucks)\//.test(url);
    const stores = loadedModules([["jobs", "list"], ["documents"]], join(dir, "stores"));
    for (const { args, code, heavy } of stores.runs) {
      assert.equal(code, 0, `chunkeval ${args.join(" ")} exits 0`);
      assert.deepEqual(heavy.filter(library), [], `chunkeval ${args.join(" ")} loads them`);
    }
    assert.deepEqual(stores.late.filter(library), [], "nor after they ended");
    // The recorder sees what a real command loads, under that command and not under the one
    // before it: the checks above can fail.
    const [first, real] = loadedModules([["--version"], ["strategies", "--json"]], join(dir, "real")).runs as [Loaded, Loaded];
    assert.equal(real.code, 0);
    assert.ok(
      real.heavy.some((url) => url.includes("/gpt-tokenizer/")),
      `strategies loads the tokenizer, and the recorder sees it: ${real.heavy.join(", ")}`,
    );
    assert.deepEqual(first.heavy, []);
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
