// Issue 37 item 5: src/services/ and src/domain/ each have a README a newcomer reads first; every
// file of the folder is named in it, so a file added without a word there fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/** The folder's own .ts files (not its subfolders') that its README does not name as `file.ts`. */
function unnamed(folder: string, readme = readFileSync(src(`${folder}/README.md`), "utf8")): string[] {
  return readdirSync(src(folder))
    .filter((f) => f.endsWith(".ts"))
    .filter((f) => !readme.includes(`\`${f}\``));
}

test("every file of src/services and src/domain is named in its folder's README", () => {
  for (const folder of ["services", "domain"]) assert.deepEqual(unnamed(folder), [], `${folder}/README.md`);
});

test("the README check finds a file its README does not name", () => {
  const missing = unnamed("services", "# services\n`bench.ts` runs benchmarks");
  assert.ok(missing.includes("ask.ts") && !missing.includes("bench.ts"), missing.join(", "));
  assert.ok(unnamed("domain", "").includes("verdict-basis.ts"));
});
