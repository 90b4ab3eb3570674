#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner through tsx. Node 20's `--test`
// does not expand globs itself, so the files are listed here. Extra arguments pass through
// (e.g. a file path to run one file).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}

const args = process.argv.slice(2);
const files = args.length > 0 ? args : findTests("test").sort();
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", "--test-reporter=spec", ...files], { stdio: "inherit" });
process.exitCode = result.status ?? 1;
