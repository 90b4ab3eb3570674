#!/usr/bin/env node
// The formatting check of `npm test`: Prettier's --check over the code, then the line length
// Prettier aims at (printWidth in .prettierrc.json), which it cannot enforce on long strings and
// comments, checked by hand across src/ and test/. `npm run format` rewrites what Prettier can.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const GLOBS = ["src/**/*.ts", "test/**/*.ts", "scripts/**/*.{ts,mjs}", "bin/*.js"];
const prettier = createRequire(import.meta.url).resolve("prettier/bin/prettier.cjs");
const checked = spawnSync(process.execPath, [prettier, "--check", "--log-level", "warn", ...GLOBS], { stdio: "inherit" });
if (checked.status !== 0) {
  console.error("format: run `npm run format` to fix the files above");
  process.exit(1);
}

const width = JSON.parse(readFileSync(".prettierrc.json", "utf8")).printWidth;
const files = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith(".ts") ? [join(dir, n)] : []));
const long = ["src", "test"].flatMap(files).flatMap((file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line, i) => (line.length > width ? [`${file}:${i + 1}: ${line.length} characters`] : [])),
);
if (long.length > 0) {
  console.error(`format: lines longer than ${width} characters (split the string or comment):\n${long.join("\n")}`);
  process.exit(1);
}
console.log(`format: Prettier clean, no line over ${width} characters in src/ and test/`);
