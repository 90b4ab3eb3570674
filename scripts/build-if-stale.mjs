#!/usr/bin/env node
// `prepare` (after `npm install`, `npm pack`, and when `npx chunkeval` links the project into
// npm's cache) and the test runner (scripts/run-tests.mjs): builds dist/ with tsc only when a source is newer than the last build, so a
// second install or every new npx call does not pay for a full TypeScript compile.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const stamp = join(root, "node_modules", ".cache", "chunkeval-build-stamp");

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const inputs = ["src", "tsconfig.json", "tsconfig.build.json", "package.json"].map((p) => join(root, p)).filter(existsSync);
const built = existsSync(stamp) && existsSync(join(root, "dist", "transports", "cli", "main.js")) ? statSync(stamp).mtimeMs : -1;
if (built >= Math.max(...inputs.map(newest))) process.exit(0);

const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
if (!existsSync(tsc)) {
  // An install without dev dependencies (e.g. from the packed tarball) ships dist/ already.
  process.exit(0);
}
console.log("building dist/ (a source changed since the last build)…");
const result = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
writeFileSync(stamp, new Date().toISOString() + "\n");
