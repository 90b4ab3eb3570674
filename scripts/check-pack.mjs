#!/usr/bin/env node
// Packs chunkeval as npm would publish it, checks the tarball's file list, installs it globally
// into a temporary prefix exactly as a user would (`npm install -g ./chunkeval-*.tgz`: install
// scripts run, so better-sqlite3 is compiled; package tarballs come from npm's cache with
// --prefer-offline, npm still asks the registry for metadata), and runs `chunkeval bench` on the
// bundled example from a folder with no source tree. Prints what it did, including whether
// @huggingface/transformers came along (a global install does not apply our `overrides`). Then
// starts `chunkeval ui` from the installed package and fetches its page and files.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "chunkeval-pack-"));
const started = Date.now();

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", cwd: root, ...options, env: { ...process.env, ...options.env } });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}
function check(ok, message) {
  if (!ok) throw new Error(message);
}

/** `chunkeval ui` from the installed package: its URL on stdout, the page and its files served from the package. */
async function checkUi(bin) {
  const child = spawn(bin, ["ui"], { cwd: work, env: { ...process.env, CHUNKEVAL_DATA_DIR: join(work, "data"), CHUNKEVAL_EMBEDDER: "hash" } });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`chunkeval ui printed no URL in 60 s: ${out}`)), 60_000);
      child.stdout.on("data", (d) => {
        out += d;
        const m = /^(http:\/\/127\.0\.0\.1:\d+\/ui\/)$/m.exec(out);
        if (m) (clearTimeout(timer), resolve(m[1]));
      });
      child.on("exit", (code) => (clearTimeout(timer), reject(new Error(`chunkeval ui exited ${code}: ${out}`))));
    });
    for (const file of ["", "ui.js", "ui.css"]) {
      const response = await fetch(new URL(file, url));
      check(response.status === 200, `chunkeval ui: ${new URL(file, url)} answered ${response.status}`);
    }
    console.log(`chunkeval ui from the installed package: ${url} and its files served`);
  } finally {
    child.kill("SIGTERM");
  }
}

try {
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work]).stdout)[0];
  const files = packed.files.map((f) => f.path);
  const required = [
    "package.json",
    "bin/chunkeval.js",
    "dist/transports/cli/main.js",
    "dist/index.js",
    "src/reports/templates/report.njk",
    "src/reports/templates/sections/verdict.njk",
    "src/transports/http/ui/index.html",
    "src/transports/http/ui/ui.js",
    "src/transports/http/ui/ui.css",
    "examples/harbor-light-handbook.docx",
    "examples/greyhill-site-visit.doc",
    "examples/strategy-module/sentence-window.mjs",
    "questions/harbor-light-handbook.json",
    "examples/corpus/tidewater-quay-lease.pdf",
    "examples/corpus/alder-street-trip-policy.docx",
    "examples/corpus/ledgerline-runbook.md",
    "examples/corpus/millbrook-museum-visit.html",
    "examples/corpus/brisa-kettle-recall.txt",
    "questions/corpus.json",
    "README.md",
    "docs/cli.md",
    "docs/configuration.md",
  ];
  const missing = required.filter((f) => !files.includes(f));
  check(missing.length === 0, `the tarball lacks ${missing.join(", ")}`);
  const stray = files.filter(
    (f) =>
      /^(test|scripts|examples\/content|node_modules|\.chunkeval)\//.test(f) ||
      (f.startsWith("src/") && !/^src\/(reports\/templates|transports\/http\/ui)\//.test(f)),
  );
  check(stray.length === 0, `the tarball carries files it should not: ${stray.slice(0, 5).join(", ")}`);
  console.log(`packed ${packed.filename}: ${files.length} files, ${(packed.size / 1e6).toFixed(1)} MB (${(packed.unpackedSize / 1e6).toFixed(1)} MB unpacked)`);

  const prefix = join(work, "prefix");
  const installStarted = Date.now();
  run("npm", ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", join(work, packed.filename)], { cwd: work });
  const installed = join(prefix, "lib", "node_modules", "chunkeval");
  const installSeconds = ((Date.now() - installStarted) / 1000).toFixed(1);
  const transformers = existsSync(join(installed, "node_modules", "@huggingface", "transformers"));
  const du = spawnSync("du", ["-sm", installed], { encoding: "utf8" }).stdout.split("\t")[0];
  console.log(
    `npm install -g of the tarball: ${installSeconds} s, ${du} MB` +
      (transformers ? " (with LanceDB's optional @huggingface/transformers: overrides do not apply to a global install)" : ""),
  );

  const bin = join(prefix, "bin", "chunkeval");
  const bench = run(
    bin,
    [
      "bench",
      join(installed, "examples", "harbor-light-handbook.docx"),
      "--questions",
      join(installed, "questions", "harbor-light-handbook.json"),
      "--strategies",
      "fixed_size",
      "--dry-run",
      "-q",
    ],
    {
      cwd: work,
      env: { CHUNKEVAL_DATA_DIR: join(work, "data") },
    },
  );
  // The scorecard's row for the strategy, and one strategy is no recommendation: the headline says
  // there was nothing to compare it with, never "Use fixed_size".
  check(/^│ fixed_size +│ keyword/m.test(bench.stdout), `chunkeval bench printed no scorecard:\n${bench.stdout}`);
  check(
    /^No recommendation: fixed_size was the only strategy benchmarked\./m.test(bench.stdout),
    `chunkeval bench printed no headline for one strategy:\n${bench.stdout}`,
  );
  console.log(`chunkeval bench on the bundled example from ${work}: ok`);
  await checkUi(bin);
  console.log(`check-pack passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
