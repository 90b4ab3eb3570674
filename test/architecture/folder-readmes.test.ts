// Issue 37 item 5: src/api/, src/services/ and src/domain/ each have a README a newcomer reads first; every
// file of the folder is named in it, so a file added without a word there fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/**
 * The folder's .ts files that its README does not name by their path in it (`file.ts`,
 * `corpus/ask.ts`). api/ names its files; services/ names every file of its product folders; domain/ names its own
 * files, and its two subfolders as wholes (`ports/`, one interface per repository, and
 * `metric-registry/`, one file per metric).
 */
const SUBFOLDER_FILES_NAMED: Record<string, boolean> = { api: false, services: true, domain: false };

function unnamed(folder: string, readme = readFileSync(src(`${folder}/README.md`), "utf8")): string[] {
  return readdirSync(src(folder), { recursive: SUBFOLDER_FILES_NAMED[folder], encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => relative(".", f))
    .filter((f) => !readme.includes(`\`${f}\``));
}

test("every file of src/api, src/services and src/domain is named in its folder's README", () => {
  for (const folder of ["api", "services", "domain"]) assert.deepEqual(unnamed(folder), [], `${folder}/README.md`);
});

test("the README check finds a file its README does not name", () => {
  const missing = unnamed("services", "# services\n`benchmarking/bench.ts` runs benchmarks, `ask.ts` asks");
  assert.ok(missing.includes("corpus/ask.ts") && missing.includes("context.ts") && !missing.includes("benchmarking/bench.ts"), missing.join(", "));
  assert.ok(unnamed("domain", "").includes("verdict-basis.ts"));
});
