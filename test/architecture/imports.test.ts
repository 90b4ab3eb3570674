import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { typeScriptFiles as files } from "../helpers/source-files.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/**
 * Every module specifier a source text names: `import … from`, `export … from`, side-effect
 * `import "x"`, and dynamic `import("x")`.
 */
function importSpecifiers(text: string): string[] {
  const forms = [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g];
  return forms.flatMap((form) => [...text.matchAll(form)].map((m) => m[1]!));
}

const ADAPTERS = ["parsers", "strategies", "embedders", "retrieval", "generators", "evaluators", "reports", "stores"];
const LANCEDB_ADAPTER = "stores/vectors/lancedb/";
const UI_PACKAGES = ["commander", "ora", "@inquirer/prompts", "cli-table3", "fastify"];
/** Ports that live beside their adapters under stores/: the vector store's. Every other module in a folder under stores/ is an adapter or a registry. */
const STORE_PORTS = ["stores/vectors/vector-store.js", "stores/vectors/points-store.js"];

/** The top-level folders and files of src/: an import whose path starts with one is one of ours. */
const SOURCE_ROOTS = new Set([...readdirSync(SRC)].map((name) => name.replace(/\.ts$/, ".js")));
/** What a transport (the CLI, the HTTP server) may import from the rest of src/. */
const TRANSPORTS_MAY_IMPORT = ["transports", "api", "domain", "config", "errors.js"];

/** The product folder of a path under services/ (corpus, benchmarking, …), or null for the files every folder shares. */
const serviceFolder = (path: string) => /^services\/([^/]+)\//.exec(path)?.[1] ?? null;
/** Which other service folders a service folder may import: everything stands on the corpus; /v1 ingestion queues jobs. */
const SERVICE_FOLDERS_BELOW: Record<string, string[]> = {
  corpus: [],
  jobs: [],
  benchmarking: ["corpus"],
  questions: ["corpus"],
  ingestion: ["corpus", "jobs"],
};

const rules: Array<{ from: (f: string) => boolean; forbid: (i: string, f: string) => boolean; why: string }> = [
  {
    from: (f) => f.startsWith("services/"),
    forbid: (i) => UI_PACKAGES.some((p) => i === p || i.startsWith(p + "/")) || i.startsWith("transports/"),
    why: "services know nothing of transports",
  },
  {
    from: (f) => serviceFolder(f) !== null,
    forbid: (i, f) => {
      const [own, imported] = [serviceFolder(f)!, serviceFolder(i)];
      return imported !== null && imported !== own && !(SERVICE_FOLDERS_BELOW[own] ?? []).includes(imported);
    },
    why: "a service folder imports only the folders below it (SERVICE_FOLDERS_BELOW)",
  },
  {
    from: (f) => f.startsWith("transports/"),
    forbid: (i) => SOURCE_ROOTS.has(i.split("/")[0]!) && !TRANSPORTS_MAY_IMPORT.some((allowed) => i === allowed || i.startsWith(allowed + "/")),
    why: "transports import only the declared API (api/), domain, errors and config",
  },
  {
    from: (f) => f.startsWith("services/"),
    forbid: (i) => /^stores\/[^/]+\//.test(i) && !STORE_PORTS.includes(i),
    why: "services use the stores' ports (domain/ports, stores/vectors/*-store.ts), never an adapter",
  },
  {
    from: (f) => ADAPTERS.some((a) => f.startsWith(a + "/")),
    forbid: (i) => i.startsWith("services/") || i.startsWith("transports/") || UI_PACKAGES.includes(i),
    why: "adapters never call up into services or transports",
  },
  { from: (f) => f.startsWith("domain/"), forbid: (i) => !i.startsWith("domain/") && !i.startsWith("node:"), why: "domain is plain types and pure functions" },
  {
    from: (f) => f.startsWith("generators/"),
    forbid: (i) => i.startsWith("evaluators/"),
    why: "generators write answers and questions; the evaluators that judge them sit above",
  },
  {
    // crc32 is a plain function, not a handle: the one import of node:zlib left.
    from: (f) => f !== "text/bpe-vocabulary-file.ts",
    forbid: (i) => i === "node:zlib" || i === "zlib",
    why: "a worker terminated while Node makes a zlib handle aborts the process: use parsers/inflate-raw.ts",
  },
  {
    from: (f) => !f.startsWith(LANCEDB_ADAPTER),
    forbid: (i) => i.startsWith("@lancedb/") || i === "apache-arrow",
    why: "only the LanceDB adapter knows LanceDB",
  },
  {
    from: (f) => !f.startsWith(LANCEDB_ADAPTER) && f !== "stores/vectors/registry.ts",
    forbid: (i) => i.startsWith(LANCEDB_ADAPTER),
    why: "vector backends are reached through stores/vectors/registry.ts",
  },
];

/** The wrong-way imports under a source root, as "file imports module: why". */
function violations(root: string): string[] {
  const out: string[] = [];
  for (const file of files(root)) {
    const rel = relative(root, file);
    const imported = importSpecifiers(readFileSync(file, "utf8")).map((s) => (s.startsWith(".") ? relative(root, resolve(dirname(file), s)) : s));
    for (const i of imported) for (const rule of rules) if (rule.from(rel) && rule.forbid(i, rel)) out.push(`${rel} imports ${i}: ${rule.why}`);
  }
  return out;
}

/** Writes a file of a fixture source tree under `root`, making its folders. */
function writerUnder(root: string): (path: string, text: string) => void {
  return (path, text) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
}

/** Each module under a source root with the modules under it that it imports (type-only and dynamic imports count: a reader follows them too). */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files(root)) {
    const local = importSpecifiers(readFileSync(file, "utf8"))
      .filter((s) => s.startsWith("."))
      .map((s) => relative(root, resolve(dirname(file), s)).replace(/\.js$/, ".ts"));
    graph.set(relative(root, file), [...new Set(local)]);
  }
  return graph;
}

/** The import circles under a source root: each strongly connected set of two or more modules (Tarjan's algorithm), sorted. */
function importCycles(root: string): string[][] {
  const graph = importGraph(root);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const members: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      members.push(w);
    } while (w !== v);
    if (members.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(members.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

test("no import circles under src/", () => {
  assert.deepEqual(importCycles(SRC), []);
});

test("the circle check finds a circle through type-only, re-export and dynamic imports, and passes a tree without one", () => {
  const root = mkdtempSync(join(tmpdir(), "chunkeval-cycles-"));
  try {
    const write = writerUnder(root);
    write("domain/experiment.ts", `import type { RankCut } from "./rank-metrics.js";\n`);
    write("domain/rank-metrics.ts", `export { mean } from "./metrics.js";\n`);
    write("domain/metrics.ts", `const r = await import("./experiment.js");\n`);
    write("services/ask.ts", `import { resolveVariant } from "./variants.js";\n`);
    write("services/variants.ts", `import { checkTopK } from "./ask.js";\n`);
    write("services/top-k.ts", `import { DEFAULTS } from "../config/defaults.js";\n`);
    write("config/defaults.ts", `export const DEFAULTS = {};\n`);
    assert.deepEqual(importCycles(root), [
      ["domain/experiment.ts", "domain/metrics.ts", "domain/rank-metrics.ts"],
      ["services/ask.ts", "services/variants.ts"],
    ]);
    write("services/variants.ts", `import { checkTopK } from "./top-k.js";\n`);
    write("domain/metrics.ts", `export const mean = 1;\n`);
    assert.deepEqual(importCycles(root), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** The top-level statements of a TypeScript text that emit JavaScript: what an interface-and-types-only module must not have. */
function runtimeStatements(text: string): string[] {
  const typeOnly = /^(import type |export type |export interface |interface |type |\/\/|\/\*\*| \*|\}|\)|$)/;
  return text.split("\n").filter((line) => !/^\s/.test(line) && !typeOnly.test(line));
}

test("the declared API (src/api/index.ts) is types only: importing it loads no module and runs nothing", () => {
  const text = readFileSync(join(SRC, "api/index.ts"), "utf8");
  assert.ok(text.split("\n").filter((l) => l.startsWith("import type ")).length > 10);
  assert.deepEqual(runtimeStatements(text), []);
  // The check sees what would run: a value import, a constant, a function, an enum, a re-export that loads a module.
  const fixture = [
    `import type { A } from "./a.js";`,
    `import { b } from "./b.js";`,
    `export const c = 1;`,
    `export enum D { E }`,
    `export { f } from "./f.js";`,
    `export type { G } from "./g.js";`,
    `function h() {}`,
    `export interface I {`,
    `  j: () => void;`,
    `}`,
  ].join("\n");
  assert.deepEqual(runtimeStatements(fixture), [
    `import { b } from "./b.js";`,
    `export const c = 1;`,
    `export enum D { E }`,
    `export { f } from "./f.js";`,
    `function h() {}`,
  ]);
});

test("imports under src/ only point the allowed way", () => {
  assert.deepEqual(violations(SRC), []);
});

test("the import parser sees every form of import", () => {
  const text = [
    `import { a } from "./a.js";`,
    `import type { B } from '../b.js';`,
    `import "./side-effect.js";`,
    `export { c } from "./c.js";`,
    `export * from "./d.js";`,
    `const e = await import("./e.js");`,
    `import f, { g } from "ora";`,
  ].join("\n");
  assert.deepEqual(importSpecifiers(text).sort(), ["../b.js", "./a.js", "./c.js", "./d.js", "./e.js", "./side-effect.js", "ora"].sort());
});

test("the check fails on a tree with wrong-way imports, side-effect and re-export ones included", () => {
  const root = mkdtempSync(join(tmpdir(), "chunkeval-imports-"));
  try {
    const write = writerUnder(root);
    write("services/ask.ts", `import "../transports/cli/progress.js";\n`);
    write("transports/http/app.ts", `export { ChunksRepo } from "../../stores/sqlite/chunks-repo.js";\n`);
    write("strategies/recursive.ts", `const s = await import("../services/process.js");\n`);
    write("domain/metrics.ts", `import { stemmer } from "stemmer";\n`);
    write("services/fine.ts", `import { x } from "../domain/metrics.js";\n`);
    write("retrieval/retrieve.ts", `import { sqlString } from "../stores/vectors/lancedb/sql.js";\n`);
    write("services/points.ts", `import type { Table } from "@lancedb/lancedb";\n`);
    write("stores/vectors/lancedb/vectors.ts", `import type { Table } from "@lancedb/lancedb";\n`);
    write("services/process.ts", `import type { SqliteChunksRepo } from "../stores/sqlite/chunks-repo.js";\n`);
    write("services/jobs.ts", `import { metadataBackendFor } from "../stores/metadata/registry.js";\n`);
    write("services/indexing.ts", `import type { VectorStore } from "../stores/vectors/vector-store.js";\nimport type { Owner } from "../stores/owner.js";\n`);
    write("generators/question-prompt.ts", `import { extractJson } from "../evaluators/llm-judge.js";\n`);
    write("services/corpus/ask.ts", `import { runBenchmark } from "../benchmarking/bench.js";\nimport type { ServiceContext } from "../context.js";\n`);
    write("services/benchmarking/bench.ts", `import { askQuestion } from "../corpus/ask.js";\n`);
    write("services/questions/question-leak.ts", `import { runBenchmark } from "../benchmarking/bench.js";\n`);
    write("parsers/zip-guard.ts", `import { inflateRawSync } from "node:zlib";\n`);
    write("text/bpe-vocabulary-file.ts", `import { crc32 } from "node:zlib";\n`);
    write(
      "transports/cli/bench.ts",
      [
        `import { missedGates } from "../../services/benchmarking/gates.js";`,
        `const { createChunkeval } = await import("../../chunkeval.js");`,
        `import type { ChunksImport } from "../../strategies/imported-chunks.js";`,
        `import { renderJunit } from "../../api/ci.js";`,
        `import type { Chunkeval } from "../../api/index.js";`,
        `import { mean } from "../../domain/metrics.js";`,
        `import { ValidationError } from "../../errors.js";`,
        `import { loadConfig } from "../../config/load.js";`,
        `import { printLine } from "./output.js";`,
        `import { Command } from "commander";`,
      ].join("\n"),
    );
    assert.deepEqual(violations(root).sort(), [
      "domain/metrics.ts imports stemmer: domain is plain types and pure functions",
      "generators/question-prompt.ts imports evaluators/llm-judge.js: generators write answers and questions; the evaluators that judge them sit above",
      "parsers/zip-guard.ts imports node:zlib: a worker terminated while Node makes a zlib handle aborts the process: use parsers/inflate-raw.ts",
      "retrieval/retrieve.ts imports stores/vectors/lancedb/sql.js: vector backends are reached through stores/vectors/registry.ts",
      "services/ask.ts imports transports/cli/progress.js: services know nothing of transports",
      "services/corpus/ask.ts imports services/benchmarking/bench.js: a service folder imports only the folders below it (SERVICE_FOLDERS_BELOW)",
      "services/jobs.ts imports stores/metadata/registry.js: services use the stores' ports (domain/ports, stores/vectors/*-store.ts), never an adapter",
      "services/points.ts imports @lancedb/lancedb: only the LanceDB adapter knows LanceDB",
      "services/process.ts imports stores/sqlite/chunks-repo.js: services use the stores' ports (domain/ports, stores/vectors/*-store.ts), never an adapter",
      "services/questions/question-leak.ts imports services/benchmarking/bench.js: a service folder imports only the folders below it (SERVICE_FOLDERS_BELOW)",
      "strategies/recursive.ts imports services/process.js: adapters never call up into services or transports",
      "transports/cli/bench.ts imports chunkeval.js: transports import only the declared API (api/), domain, errors and config",
      "transports/cli/bench.ts imports services/benchmarking/gates.js: transports import only the declared API (api/), domain, errors and config",
      "transports/cli/bench.ts imports strategies/imported-chunks.js: transports import only the declared API (api/), domain, errors and config",
      "transports/http/app.ts imports stores/sqlite/chunks-repo.js: transports import only the declared API (api/), domain, errors and config",
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the facade exposes services and typed results only: no repository, store or connection leaves it", async () => {
  const { createWorkspace } = await import("../helpers/workspace.js");
  const ws = await createWorkspace();
  try {
    const leaks = Object.entries(ws.app).filter(([key, value]) => {
      if (key === "config") return false; // the frozen settings
      if (key === "metrics") return !Object.isFrozen(value); // the composition's metric definitions, frozen once made
      if (typeof value === "function") return false;
      // A service object (tenants): its members are functions too.
      const isServiceObject =
        value !== null &&
        typeof value === "object" &&
        Object.getPrototypeOf(value) === Object.prototype &&
        Object.values(value).every((v) => typeof v === "function");
      return !isServiceObject;
    });
    assert.deepEqual(
      leaks.map(([key]) => key),
      [],
    );
    // What a service function returns is data, not a store: e.g. the tenants service hides key hashes.
    await ws.app.tenants.createTenant("acme");
    await ws.app.tenants.createApiKey("acme", ["files:write"]);
    assert.deepEqual(Object.keys((await ws.app.tenants.listKeys())[0]!).sort(), ["createdAt", "id", "revokedAt", "scopes", "tenantId"]);
  } finally {
    await ws.cleanup();
  }
});
