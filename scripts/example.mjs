#!/usr/bin/env node
// The quick start's main job: benchmark all six built-in strategies on the bundled handbook with its
// questions, on the default offline stack, and write both HTML report views. Uses ./.chunkeval
// unless CHUNKEVAL_DATA_DIR says otherwise.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

function chunkeval(args) {
  const r = spawnSync(process.execPath, [root("bin/chunkeval.js"), ...args], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  process.stdout.write(r.stdout ?? "");
  if (r.status !== 0) process.exit(r.status ?? 1);
  return r.stdout;
}

const out = chunkeval([
  "bench",
  root("examples/harbor-light-handbook.docx"),
  "--questions",
  root("questions/harbor-light-handbook.json"),
  "--strategies",
  "all",
  "--out",
  "chunkeval-report.html",
]);
const id = out.match(/experiment: (exp_[0-9a-f]+)/)[1];
chunkeval(["report", id, "--view", "technical", "--out", "chunkeval-report-technical.html"]);
console.log("\nOpen chunkeval-report.html (managerial view) or chunkeval-report-technical.html in a browser.");
