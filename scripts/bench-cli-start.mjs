#!/usr/bin/env node
// How long the built CLI takes to answer `--help`, `--version`, `config`, every command's `--help`,
// and two commands that open the stores and count nothing (`jobs list`, `documents`), next to
// `node -e 0` measured in the same run (the floor: starting Node itself).
// Prints the median of several runs of each and its ratio to that floor.
//
//   npm run build && npm run bench:cli [-- --runs 15]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildProgram } from "../dist/transports/cli/program.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "11" } } });
const runs = Number(values.runs);
const bin = fileURLToPath(new URL("../bin/chunkeval.js", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "chunkeval-bench-cli-"));

const paths = (command, prefix = []) => command.commands.flatMap((c) => [[...prefix, c.name()], ...paths(c, [...prefix, c.name()])]);
const cases = [
  ["node -e 0", ["-e", "0"]],
  ...[["--help"], ["--version"], ["config"], ["jobs", "list"], ["documents"], ...paths(buildProgram()).map((p) => [...p, "--help"])].map((args) => [
    `chunkeval ${args.join(" ")}`,
    [bin, ...args],
  ]),
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const times = new Map(cases.map(([name]) => [name, []]));
// Interleaved rounds, so a burst of load elsewhere on the machine touches every command alike.
for (let round = 0; round < runs; round++) {
  for (const [name, args] of cases) {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { env: { ...process.env, CHUNKEVAL_DATA_DIR: dataDir }, stdio: "ignore" });
    times.get(name).push(performance.now() - started);
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
  }
}
rmSync(dataDir, { recursive: true, force: true });

const floor = median(times.get("node -e 0"));
const width = Math.max(...cases.map(([name]) => name.length));
console.log(`median of ${runs} runs each (node ${process.version}):`);
for (const [name] of cases) {
  const m = median(times.get(name));
  console.log(`  ${name.padEnd(width)}  ${(m / 1000).toFixed(3)} s  ${(m / floor).toFixed(2)}x node -e 0`);
}
