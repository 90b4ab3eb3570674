import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Every module a file imports (static or dynamic), relative ones resolved to src-relative paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)["']([^"']+)["']/g)].map((m) => m[1]!);
  return specs.map((s) => (s.startsWith(".") ? relative(SRC, resolve(dirname(file), s)) : s));
}

const ADAPTERS = ["parsers", "strategies", "embedders", "retrieval", "generators", "evaluators", "reports", "stores"];
const UI_PACKAGES = ["commander", "ora", "@inquirer/prompts", "cli-table3", "fastify"];

const rules: Array<{ from: (f: string) => boolean; forbid: (i: string) => boolean; why: string }> = [
  { from: (f) => f.startsWith("services/"), forbid: (i) => UI_PACKAGES.some((p) => i === p || i.startsWith(p + "/")) || i.startsWith("transports/"), why: "services know nothing of transports" },
  { from: (f) => f.startsWith("transports/"), forbid: (i) => i.startsWith("stores/"), why: "transports reach stores only through services" },
  { from: (f) => ADAPTERS.some((a) => f.startsWith(a + "/")), forbid: (i) => i.startsWith("services/") || i.startsWith("transports/") || UI_PACKAGES.includes(i), why: "adapters never call up into services or transports" },
  { from: (f) => f.startsWith("domain/"), forbid: (i) => !i.startsWith("domain/") && !i.startsWith("node:"), why: "domain is plain types and pure functions" },
];

test("imports under src/ only point the allowed way", () => {
  const violations: string[] = [];
  for (const file of files(SRC)) {
    const rel = relative(SRC, file);
    for (const imported of importsOf(file)) {
      for (const rule of rules) if (rule.from(rel) && rule.forbid(imported)) violations.push(`${rel} imports ${imported}: ${rule.why}`);
    }
  }
  assert.deepEqual(violations, []);
});

test("the rules catch a wrong-way import", () => {
  const rule = rules[0]!;
  assert.equal(rule.from("services/ask.ts") && rule.forbid("ora"), true);
});
