#!/usr/bin/env node
// `npm run example:corpus`: benchmark all built-in strategies on the bundled example corpus
// (examples/corpus/: a PDF, a Markdown file, an HTML page, a text file and a .docx, searched
// together as one collection) with questions/corpus.json, on the default offline stack, and write
// both HTML report views. Uses ./.chunkeval unless CHUNKEVAL_DATA_DIR says otherwise.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const started = Date.now();

function chunkeval(args) {
  const r = spawnSync(process.execPath, [root("bin/chunkeval.js"), ...args], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  process.stdout.write(r.stdout ?? "");
  if (r.status !== 0) process.exit(r.status ?? 1);
  return r.stdout;
}

const out = chunkeval([
  "bench",
  root("examples/corpus"),
  "--collection",
  "example-corpus",
  "--questions",
  root("questions/corpus.json"),
  "--strategies",
  "all",
  "--out",
  "chunkeval-corpus-report.html",
]);
const id = out.match(/experiment: (exp_[0-9a-f]+)/)[1];
chunkeval(["report", id, "--view", "technical", "--out", "chunkeval-corpus-report-technical.html"]);
console.log(`\nbenchmarked the example corpus in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log("Open chunkeval-corpus-report.html (managerial view) or chunkeval-corpus-report-technical.html in a browser.");
