/**
 * How soon Ctrl-C is acknowledged during a benchmark (issue 39, item 5: "within a second").
 * Benchmarks the bundled example corpus (five documents, 38 questions, all six strategies, the
 * default offline stack) once without interruption to time it, then again with one SIGINT sent
 * at several points of that time, and prints for each: the phase the run was in (its last
 * progress line), how long after the signal `Ctrl-C: stopping after the step under way` came,
 * and when and how the process ended. The first pass embeds into an empty cache (mostly worker
 * threads); the later ones find every vector cached, which leaves the answering and the scoring
 * on the main thread: the case where an unyielding loop delays the signal.
 *
 *   npm run bench:interrupt [-- --points 0.1,0.3,0.5,0.7,0.85,0.95]
 *
 * Bounded: each run is killed after 180 s; the data directory is a temporary one, removed at the end.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ACK = "Ctrl-C: stopping after the step under way";
const RUN_LIMIT_MS = 180_000;

const { values } = parseArgs({ options: { points: { type: "string", default: "0.1,0.3,0.5,0.7,0.85,0.95" } } });
const points = values.points.split(",").map(Number);
const dataDir = mkdtempSync(join(tmpdir(), "chunkeval-interrupt-"));
const args = [
  join(ROOT, "bin/chunkeval.js"),
  "bench",
  join(ROOT, "examples/corpus"),
  "--collection",
  "interrupt",
  "--questions",
  join(ROOT, "questions/corpus.json"),
  "--strategies",
  "all",
  "--progress",
  "lines",
];

/** One bench run, with a SIGINT after `signalAfterMs` (none when null). */
function run(signalAfterMs) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: dataDir, env: { ...process.env, CHUNKEVAL_DATA_DIR: dataDir }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let signalledAt = null;
    let ackAt = null;
    let phase = "";
    child.stderr.on("data", (d) => {
      const before = stderr;
      stderr += d;
      if (ackAt === null && signalledAt !== null && stderr.includes(ACK)) ackAt = performance.now();
      if (signalledAt === null) {
        const lines = stderr.split("\n").filter((l) => l.trim() !== "");
        phase = lines.at(-1)?.trim() ?? before;
      }
    });
    const signal = signalAfterMs === null ? null : setTimeout(() => ((signalledAt = performance.now()), child.kill("SIGINT")), signalAfterMs);
    const limit = setTimeout(() => child.kill("SIGKILL"), RUN_LIMIT_MS);
    child.on("close", (code, how) => {
      clearTimeout(signal ?? undefined);
      clearTimeout(limit);
      const ended = performance.now();
      resolve({
        totalMs: ended - started,
        code: how ?? code,
        phase: signalledAt === null ? "(finished before the signal)" : phase,
        ackMs: ackAt === null || signalledAt === null ? null : ackAt - signalledAt,
        exitMs: signalledAt === null ? null : ended - signalledAt,
      });
    });
  });
}

try {
  const cold = await run(null);
  const warm = await run(null);
  console.log(
    `uninterrupted: ${(cold.totalMs / 1000).toFixed(1)} s with an empty cache (exit ${cold.code}), ${(warm.totalMs / 1000).toFixed(1)} s warm (exit ${warm.code})`,
  );
  console.log("point  signal at  acknowledged after  ended after  exit  phase when signalled");
  const acks = [];
  for (const point of points) {
    const at = Math.round(point * warm.totalMs);
    const r = await run(at);
    if (r.ackMs !== null) acks.push(r.ackMs);
    const ack = r.ackMs === null ? "never" : `${Math.round(r.ackMs)} ms`;
    const ended = r.exitMs === null ? "-" : `${Math.round(r.exitMs)} ms`;
    console.log(
      `${point.toFixed(2).padStart(5)}  ${`${at} ms`.padStart(9)}  ${ack.padStart(18)}  ${ended.padStart(11)}  ${String(r.code).padStart(4)}  ${r.phase.slice(0, 90)}`,
    );
  }
  if (acks.length > 0)
    console.log(
      `acknowledged: slowest ${Math.round(Math.max(...acks))} ms, median ${Math.round(acks.sort((a, b) => a - b)[Math.floor(acks.length / 2)])} ms over ${acks.length} signals`,
    );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
