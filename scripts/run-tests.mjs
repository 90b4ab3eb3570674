#!/usr/bin/env node
// Runs the test files, each in its own process (node's test runner through tsx), in the lanes
// test/lanes.mjs assigns: the parallel lane on a pool of processes, the serial lane one file at a
// time beside it. Before the lanes start, it makes the run's shared fixtures once
// (test/helpers/run-fixtures.ts): a PostgreSQL server with a migrated template database and a
// warm embedding cache, passed to every test process by environment.
//
//   node scripts/run-tests.mjs [--lane fast] [--checks] [--store sqlite|postgres|both] [--jobs N] [FILE_OR_FOLDER…]
//
//   --lane fast   only the fast lane (the edit loop: `npm run test:fast`)
//   --checks      the type check and the format check too (`npm test`), each a process in the
//                 parallel lane beside the test files, failing the run like a failed file
//   --store       the metadata store of the service and HTTP files (test/lanes.mjs, POSTGRES_PASS):
//                 sqlite (the default), postgres (those files only, each workspace on a copy of
//                 the run's template database: `npm run test:postgres`), or both (every file,
//                 then those files again on PostgreSQL, in the same lanes: .ci/run)
//   --jobs N      processes at once (default CHUNKEVAL_TEST_JOBS, else cores + 4: most of a
//                 test file's time is spent waiting on child processes, sockets and databases;
//                 on two cores 4 took 771 s, 6 took 704 s, and at 8 two parallel files' time
//                 bounds failed)
//
// At its end it prints the wall time, the files and tests run, passed and failed, the ten
// slowest files, and the plain closing line `N passed, N failed`; it writes every file's
// duration to test-artifacts/test-durations.json (.ci/run keeps that folder), and the log of a
// passing file that took far longer than its last run to test-artifacts/slow-files/.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ALONE, FAST, MODEL, POSTGRES_PASS, SERIAL, matches } from "../test/lanes.mjs";
import { buildTests, builtTest } from "./build-tests.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
process.chdir(root);

/** A file that has not finished after this long is killed and counted failed (a hung test must not hang CI). */
const FILE_DEADLINE_MS = 15 * 60_000;

function parseArgs(argv) {
  const options = { lane: undefined, checks: false, store: "sqlite", jobs: Number(process.env.CHUNKEVAL_TEST_JOBS) || availableParallelism() + 4, paths: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--lane" && argv[i + 1] === "fast") options.lane = argv[++i];
    else if (arg === "--checks") options.checks = true;
    else if (arg === "--store" && ["sqlite", "postgres", "both"].includes(argv[i + 1])) options.store = argv[++i];
    else if (arg === "--jobs" && /^[1-9]\d*$/.test(argv[i + 1] ?? "")) options.jobs = Number(argv[++i]);
    else if (arg.startsWith("--")) {
      console.error(
        `usage: node scripts/run-tests.mjs [--lane fast] [--checks] [--store sqlite|postgres|both] [--jobs N] [FILE_OR_FOLDER…] (unknown or incomplete argument: ${arg})`,
      );
      process.exit(2);
    } else options.paths.push(relative(root, resolve(arg)) || ".");
  }
  return options;
}

function findTests(path) {
  if (!existsSync(path)) {
    console.error(`no such test file or folder: ${path}`);
    process.exit(2);
  }
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => {
    const child = join(path, name);
    if (statSync(child).isDirectory()) return findTests(child);
    return name.endsWith(".test.ts") ? [child] : [];
  });
}

/** The runs to make: one per file (and per file again on PostgreSQL with --postgres), each with its lane. */
function plan(options) {
  const all = [...new Set((options.paths.length > 0 ? options.paths : ["test"]).flatMap(findTests))].sort();
  const selected = options.lane === "fast" ? all.filter((file) => matches(FAST, file)) : all;
  const onSqlite = options.store === "postgres" ? [] : selected;
  const onPostgres = options.store === "sqlite" ? [] : selected.filter((f) => matches(POSTGRES_PASS, f));
  const runs = [...onSqlite.map((file) => ({ file, store: "sqlite" })), ...onPostgres.map((file) => ({ file, store: "postgres" }))].map((run) => ({
    ...run,
    lane: matches(ALONE, run.file) ? "alone" : matches(SERIAL, run.file) ? "serial" : "parallel",
  }));
  // Longest first (by the durations kept from an earlier run, when there are any), so the pool
  // does not end waiting on one long file started last.
  const known = previousDurations();
  const weight = (run) => known[`${run.store} ${run.file}`] ?? 30;
  // The checks first: they take about as long as a middling file and nothing waits on them.
  return [...(options.checks ? CHECKS.map((check) => ({ ...check, store: "sqlite", lane: "parallel" })) : []), ...runs.sort((a, b) => weight(b) - weight(a))];
}

/** What `--checks` adds to the run: each a node command, passed when it exits 0. */
const CHECKS = [
  { file: "type check (tsc --noEmit)", check: ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--noEmit"] },
  { file: "format check (scripts/check-format.mjs)", check: ["scripts/check-format.mjs"] },
];

const DURATIONS_FILE = "test-artifacts/test-durations.json";
/** Where the logs of passing files that ran far longer than their last run are kept. */
const SLOW_LOGS = "test-artifacts/slow-files";
/** test/durations.json: the figures the order is taken from, committed so that a fresh clone's first run is ordered too. */
function previousDurations(key = "seconds") {
  for (const file of [DURATIONS_FILE, "test/durations.json"]) {
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, "utf8"))[key] ?? {};
      } catch {
        // a half-written file from a killed run: try the next
      }
    }
  }
  return {};
}

/** node:test's closing counts in a TAP log (`# pass N`); a missing count is 0. */
function tapCounts(text) {
  const count = (name) => Number([...text.matchAll(new RegExp(`^# ${name} (\\d+)$`, "gm"))].at(-1)?.[1] ?? 0);
  return { tests: count("tests"), pass: count("pass"), fail: count("fail"), cancelled: count("cancelled"), skipped: count("skipped"), todo: count("todo") };
}

/** The process groups of the files running now: a signal to the runner ends them too. */
const running = new Set();

/**
 * How much lower the parallel lane's processes run than the serial lane's (nice(1)'s niceness). The
 * serial files are the run's longest chain, one after another, and most of their time is spent in
 * processes of their own: at equal priority they shared two cores with the parallel files and
 * their children, and the chain ended the run with a core idle. At niceness 5 a serial process
 * weighs as much as three parallel ones (1024 against 335), so it gets most of a core whenever it
 * wants one, and the parallel lane the rest.
 *
 * Each file runs in a session of its own (detached, for killGroup), and where the kernel groups
 * processes by session for scheduling (autogroup, /proc/sys/kernel/sched_autogroup_enabled), a
 * process's niceness counts only inside its group and the groups share the processors equally: the
 * group's own niceness, /proc/self/autogroup, is set too. Without CAP_SYS_ADMIN the kernel takes
 * one such write per 100 ms on the whole machine (EAGAIN otherwise), so a file started beside
 * others tries again for up to a second, and goes on at equal priority if it never gets through.
 */
const PARALLEL_NICENESS = 5;

/**
 * Runs node with `args` in a process group of its own at `niceness`, its output to `outputFile`,
 * killed with its children after FILE_DEADLINE_MS; resolves to how it ended (a failed spawn is exit
 * 127).
 */
function runProcess(args, env, outputFile, niceness = 0) {
  return new Promise((resolve) => {
    // Through bash, whose `times` prints the CPU the file's processes used (node's own threads,
    // and every child process it waited for): the figure that decides the run's wall time on two cores.
    const cpuFile = `${outputFile}.cpu`;
    const script = [
      'if [ "$NICENESS" != 0 ] && [ -w /proc/self/autogroup ]; then',
      '  for try in 1 2 3 4 5 6 7 8 9 10; do (echo "$NICENESS" > /proc/self/autogroup) 2>/dev/null && break; sleep 0.11; done',
      "fi",
      'nice -n "$NICENESS" node "$@"; code=$?; times > "$CPU_FILE"; exit $code',
    ].join("\n");
    const child = spawn("bash", ["-c", script, "bash", ...args], {
      env: { ...process.env, ...env, CPU_FILE: cpuFile, NICENESS: String(niceness), PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    running.add(child);
    const output = createWriteStream(outputFile);
    child.stdout.pipe(output, { end: false });
    child.stderr.pipe(output, { end: false });
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, FILE_DEADLINE_MS);
    let ended = false;
    const end = (code, signal) => {
      if (ended) return;
      ended = true;
      clearTimeout(deadline);
      running.delete(child);
      output.end(() => resolve({ code, signal, timedOut, cpuSeconds: childCpuSeconds(read(cpuFile)) }));
    };
    child.on("error", (error) => (output.write(`${error.message}\n`), end(127, null)));
    child.on("close", end);
  });
}

/** The user + system seconds of the children's line of bash's `times` ("0m1.250s 0m0.310s"); 0 when the file is missing. */
function childCpuSeconds(text) {
  const line = text.trim().split("\n")[1] ?? "";
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((total, [, minutes, seconds]) => total + Number(minutes) * 60 + Number(seconds), 0);
}

function killGroup(child) {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * How a test process loads TypeScript: tsx for the test files, and once this run built dist/,
 * the built chunkeval modules in place of their sources (test/helpers/built-sources.mjs).
 */
const loaders = () => ["--import", "tsx", ...(builtSources ? ["--import", "./test/helpers/built-sources.mjs"] : [])];

/**
 * The arguments that start a test file: once this run built dist/ and test-dist/
 * (scripts/build-tests.mjs), its JavaScript in plain node, which starts in about a second less
 * processor time than under the loaders; else, or when its imports need tsx, the file itself
 * under the loaders.
 */
const startArgs = (file) => (builtTests && !needsTsx.has(file) ? ["--enable-source-maps", builtTest(file)] : [...loaders(), file]);

const read = (file) => (existsSync(file) ? readFileSync(file, "utf8") : "");

async function runFile(run, env, logDir) {
  if (run.check) return runCheck(run, logDir);
  const name = `${run.store}-${run.file.replace(/[/.]/g, "_")}`;
  const specLog = join(logDir, `${name}.spec.txt`);
  const tapLog = join(logDir, `${name}.tap`);
  const outLog = join(logDir, `${name}.out.txt`);
  const started = Date.now();
  const reporters = ["--test-reporter=spec", `--test-reporter-destination=${specLog}`, "--test-reporter=tap", `--test-reporter-destination=${tapLog}`];
  const store = run.store === "postgres" ? { CHUNKEVAL_TEST_METADATA_STORE: "postgres" } : {};
  // The file itself, not `node --test FILE`: that starts a second process (with the loaders again)
  // to run the file in, about 0.2 s of processor time per file for nothing. Run directly, the file
  // still reports through the reporters and exits 1 when a test fails.
  const args = startArgs(run.file);
  const { code, signal, timedOut, cpuSeconds } = await runProcess(
    [...args.slice(0, -1), ...reporters, args.at(-1)],
    { ...env, ...store },
    outLog,
    run.lane === "parallel" ? PARALLEL_NICENESS : 0,
  );
  const counts = tapCounts(read(tapLog));
  const ok = code === 0 && !timedOut && counts.fail + counts.cancelled === 0;
  return {
    ...run,
    ok,
    seconds: (Date.now() - started) / 1000,
    cpuSeconds,
    counts,
    why: timedOut ? `killed after ${FILE_DEADLINE_MS / 60_000} minutes` : code !== 0 ? `exit ${code ?? signal}` : "",
    report: ok ? "" : `${read(specLog)}${read(outLog)}`,
    logs: [specLog, outLog],
  };
}

/** Runs one of CHECKS; resolves to a result like a test file's, its output the report when it fails. */
async function runCheck(run, logDir) {
  const started = Date.now();
  const outLog = join(logDir, `check-${run.file.replace(/\W+/g, "_")}.out.txt`);
  const { code, timedOut, cpuSeconds } = await runProcess(run.check, {}, outLog, PARALLEL_NICENESS);
  const ok = code === 0 && !timedOut;
  return {
    ...run,
    ok,
    seconds: (Date.now() - started) / 1000,
    cpuSeconds,
    counts: { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 },
    why: ok ? "" : timedOut ? `killed after ${FILE_DEADLINE_MS / 60_000} minutes` : `exit ${code}`,
    report: ok ? "" : read(outLog),
  };
}

/**
 * Warms the run's embedding cache in a process of its own (test/helpers/warm-cache.ts), under the
 * same deadline as a test file; resolves to a result like a test file's, so a failed warm-up
 * fails the run.
 */
async function warmCache(cacheDir, logDir) {
  const started = Date.now();
  const outLog = join(logDir, "warm-cache.out.txt");
  const { code, timedOut, cpuSeconds } = await runProcess([...startArgs(WARM_UP), cacheDir], {}, outLog);
  const output = read(outLog);
  const ok = code === 0 && !timedOut;
  return {
    file: WARM_UP,
    store: "sqlite",
    ok,
    seconds: (Date.now() - started) / 1000,
    cpuSeconds,
    counts: { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 },
    why: ok ? output.trim() : timedOut ? `killed after ${FILE_DEADLINE_MS / 60_000} minutes` : `exit ${code}`,
    report: ok ? "" : output,
  };
}
const WARM_UP = "test/helpers/warm-cache.ts";

/**
 * Runs the parallel lane on `jobs - 1` slots (at least one) and the serial lane, one file at a
 * time, on the last; then the ALONE files, one at a time with nothing beside them. With `cacheDir`, the first parallel slot warms the embedding cache first,
 * and the files that embed with the bundled model (MODEL) start only once it is warm.
 */
async function runLanes(runs, jobs, env, logDir, onDone, cacheDir) {
  const [parallel, serial, alone] = ["parallel", "serial", "alone"].map((lane) => runs.filter((r) => r.lane === lane));
  const results = [];
  const done = (result) => (results.push(result), onDone(result));
  let warm = Promise.resolve();
  let warmed = true;
  if (cacheDir && runs.some((r) => matches(MODEL, r.file))) {
    warmed = false;
    warm = warmCache(cacheDir, logDir).then((result) => {
      warmed = true;
      done(result);
    });
  }
  const next = (queue) => {
    const at = queue.findIndex((r) => warmed || !matches(MODEL, r.file));
    return at < 0 ? undefined : queue.splice(at, 1)[0];
  };
  const drain = async (queue) => {
    while (queue.length > 0) {
      const run = next(queue);
      if (!run) {
        await warm;
        continue;
      }
      done(await runFile(run, env, logDir));
    }
  };
  if (jobs === 1) {
    // One process at a time: the serial lane after the parallel one.
    await warm;
    await drain(parallel);
    await drain(serial);
    await drain(alone);
    return results;
  }
  const parallelSlots = serial.length > 0 ? jobs - 1 : jobs;
  // When one lane is empty the other takes its slots: the serial files' neighbours are the
  // parallel lane's files, never another serial file. The warm-up takes the first parallel slot.
  await Promise.all([drain(serial), warm.then(() => drain(parallel)), ...Array.from({ length: parallelSlots - 1 }, () => drain(parallel))]);
  // Then the files that must run with nothing beside them.
  await drain(alone);
  return results;
}

const options = parseArgs(process.argv.slice(2));
const started = Date.now();
const runs = plan(options);
if (runs.length === 0) {
  console.error("no test files selected");
  process.exit(2);
}
mkdirSync("test-artifacts", { recursive: true });
const logDir = mkdtempSync(join(tmpdir(), "chunkeval-test-logs-"));

// The run's shared fixtures, made in this process (its PostgreSQL server's exit hook stops it when
// the run ends, however it ends).
const needsFixtures = options.lane !== "fast";
let fixtures = { env: {}, stop: async () => undefined };
// Set once this run built dist/ from the sources as they stand (the fast lane does not build).
let builtSources = false;
// Set once this run wrote test-dist/; the files that must still run under tsx.
let builtTests = false;
let needsTsx = new Set();
if (needsFixtures) {
  // dist/ as the sources stand: the files that start the CLI run bin/chunkeval.js, and every
  // file loads the built modules (loaders()).
  const build = spawnSync(process.execPath, ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
  if (build.status !== 0) {
    console.error("the build failed: no test ran");
    process.exit(1);
  }
  builtSources = true;
  needsTsx = new Set(buildTests());
  builtTests = true;
  const { register } = await import("tsx/esm/api");
  register();
  const { startRunFixtures } = await import("../test/helpers/run-fixtures.ts");
  const setupStarted = Date.now();
  // The fast lane's files never open PostgreSQL; every other file may.
  fixtures = await startRunFixtures({ postgres: runs.some((r) => r.store === "postgres" || !matches(FAST, r.file)) });
  console.log(`fixtures ready in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s: ${fixtures.summary}`);
}

const files = runs.filter((r) => !r.check);
const inLane = (lane) => files.filter((r) => r.lane === lane).length;
const lanes = `${inLane("parallel")} parallel, ${inLane("serial")} serial, ${inLane("alone")} alone after them`;
const checks = options.checks ? `, and the ${CHECKS.length} checks in the parallel lane` : "";
console.log(`running ${files.length} test files (${lanes})${checks} on ${options.jobs} processes at once`);
// Ctrl-C or a CI's cancel: the files' process groups are ended and the fixtures removed before
// the runner exits (the files run detached, so the signal does not reach them itself).
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping ${running.size} running test files`);
    for (const child of running) killGroup(child);
    fixtures.stop().finally(() => process.exit(code));
  });
}
let finished = 0;
const results = await runLanes(
  runs,
  options.jobs,
  fixtures.env,
  logDir,
  (result) => {
    const { pass, fail, cancelled } = result.counts;
    if (result.file === WARM_UP) {
      console.log(`${result.ok ? "ok  " : "FAIL"}     ${result.why} (the warm-up's process: ${result.seconds.toFixed(1)} s)`);
      if (!result.ok) console.log(result.report.replace(/^/gm, "    "));
      return;
    }
    if (result.check) {
      console.log(`${result.ok ? "ok  " : "FAIL"}     ${result.file} ${result.seconds.toFixed(1)} s${result.why ? ` ${result.why}` : ""}`);
      if (!result.ok) console.log(result.report.replace(/^/gm, "    "));
      return;
    }
    finished += 1;
    const where = result.store === "postgres" ? " [postgres]" : "";
    const mark = result.ok ? "ok  " : "FAIL";
    console.log(
      `${mark} ${String(finished).padStart(3)}/${files.length} ${result.file}${where} ${result.seconds.toFixed(1)} s (${pass} pass, ${fail + cancelled} fail)${result.why ? ` ${result.why}` : ""}`,
    );
    if (!result.ok) console.log(result.report.replace(/^/gm, "    "));
  },
  fixtures.env.CHUNKEVAL_TEST_CACHE_DIR,
).finally(() => fixtures.stop());

const wall = (Date.now() - started) / 1000;
const sum = (key) => results.reduce((total, r) => total + r.counts[key], 0);
const failedFiles = results.filter((r) => !r.ok);
const fileResults = results.filter((r) => r.file !== WARM_UP && !r.check);
// A file that failed without a failing test (a crash, a deadline) still counts as one failure.
const failed = sum("fail") + sum("cancelled") + failedFiles.filter((r) => r.counts.fail + r.counts.cancelled === 0).length;
const slowest = [...fileResults].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
// A file that passed but took far longer than its last recorded run (a wait that ran to near its
// bound under load, say) keeps its log, which a passing file otherwise does not, for the next
// person to see what it waited on.
const earlier = previousDurations();
const outliers = fileResults.filter(
  (r) => r.ok && r.logs && earlier[`${r.store} ${r.file}`] !== undefined && r.seconds > Math.max(60, 2.5 * earlier[`${r.store} ${r.file}`]),
);
if (outliers.length > 0) mkdirSync(SLOW_LOGS, { recursive: true });
for (const r of outliers) writeFileSync(join(SLOW_LOGS, `${r.store}-${r.file.replace(/[/.]/g, "_")}.txt`), r.logs.map(read).join(""));
writeFileSync(
  DURATIONS_FILE,
  JSON.stringify(
    {
      last_run: { wall_seconds: Math.round(wall), jobs: options.jobs, files: fileResults.length },
      // This run's figures over the earlier ones, so a partial run (one lane, one file) keeps the rest.
      seconds: { ...previousDurations(), ...Object.fromEntries(fileResults.map((r) => [`${r.store} ${r.file}`, Math.round(r.seconds * 10) / 10])) },
      cpu_seconds: {
        ...previousDurations("cpu_seconds"),
        ...Object.fromEntries(results.map((r) => [`${r.store} ${r.file}`, Math.round(r.cpuSeconds * 10) / 10])),
      },
    },
    null,
    1,
  ) + "\n",
);
console.log(`\nslowest files:`);
for (const r of slowest) {
  console.log(
    `  ${r.seconds.toFixed(1).padStart(6)} s  (CPU ${r.cpuSeconds.toFixed(0).padStart(4)} s)  ${r.file}${r.store === "postgres" ? " [postgres]" : ""}`,
  );
}
const cpu = results.reduce((total, r) => total + r.cpuSeconds, 0);
const mostCpu = [...results].sort((a, b) => b.cpuSeconds - a.cpuSeconds).slice(0, 10);
console.log(`\nmost CPU (${cpu.toFixed(0)} s in all, ${(cpu / wall).toFixed(2)} cores busy on average):`);
for (const r of mostCpu) console.log(`  ${r.cpuSeconds.toFixed(1).padStart(6)} s  ${r.file}${r.store === "postgres" ? " [postgres]" : ""}`);
console.log(
  `\nwall time ${(wall / 60).toFixed(1)} min (${wall.toFixed(0)} s); ${fileResults.length} files, ${sum("tests")} tests: ${sum("pass")} passed, ${failed} failed, ${sum("skipped")} skipped`,
);
console.log(`per-file durations in ${relative(root, join(root, DURATIONS_FILE))}`);
for (const r of outliers)
  console.log(
    `${r.file}${r.store === "postgres" ? " [postgres]" : ""} passed in ${r.seconds.toFixed(0)} s, its last run ${earlier[`${r.store} ${r.file}`]} s: its log is in ${SLOW_LOGS}/`,
  );
if (failedFiles.length > 0) {
  // Each failure's first lines again at the end: a CI log that keeps only its head and tail still shows why.
  for (const r of failedFiles) {
    const lines = r.report.split("\n");
    const first = Math.max(
      0,
      lines.findIndex((line) => line.includes("✖")),
    );
    console.log(
      `failed: ${r.file}${r.store === "postgres" ? " [postgres]" : ""}\n${lines
        .slice(first, first + 12)
        .join("\n")
        .replace(/^/gm, "    ")}`,
    );
  }
  console.log(`failed files: ${failedFiles.map((r) => `${r.file}${r.store === "postgres" ? " [postgres]" : ""}`).join(", ")}`);
}
console.log(`${sum("pass")} passed, ${failed} failed`);
rmSync(logDir, { recursive: true, force: true });
process.exitCode = failed > 0 || failedFiles.length > 0 ? 1 : 0;
