#!/usr/bin/env node
// `prepare` (after `npm install`, `npm pack`, and when `npx chunkeval` links the project into
// npm's cache) and the test runner (scripts/run-tests.mjs): builds dist/ with tsc only when a source is newer than the last build, so a
// second install or every new npx call does not pay for a full TypeScript compile.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// One stamp per checkout: worktrees that share a node_modules (a symlink) each keep their own.
const stamp = join(root, "node_modules", ".cache", `chunkeval-build-stamp-${createHash("sha256").update(root).digest("hex").slice(0, 12)}`);

/** The newest modification under `path`, folders included: a file deleted or renamed changes its folder's time. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const inputs = ["src", "tsconfig.json", "tsconfig.build.json", "package.json"].map((p) => join(root, p)).filter(existsSync);
const built = existsSync(stamp) && existsSync(join(root, "dist", "transports", "cli", "main.js")) ? statSync(stamp).mtimeMs : -1;
const sourcesAt = Math.max(...inputs.map(newest));
if (built >= sourcesAt) process.exit(0);

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
// Dated to the sources the build read, not to its end: a file saved while tsc ran is newer. Set in
// whole milliseconds past the newest source (utimes keeps fewer digits than the file system's own
// times, and a stamp a few nanoseconds early made every next run build again).
const stampAt = (Math.floor(sourcesAt) + 1) / 1000;
utimesSync(stamp, stampAt, stampAt);
