/** Shared by the load scripts: a `chunkeval serve` child on 127.0.0.1 and a bounded load loop. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../bin/chunkeval.js", import.meta.url));

export type Started = { url: string; pid: number; stop: () => Promise<void>; kill9: () => Promise<void> };

/** `chunkeval serve --port 0 [extra…]` on 127.0.0.1; resolves with its URL once it serves. */
export function startServe(env: NodeJS.ProcessEnv, extra: string[] = []): Promise<Started> {
  return startChild(["serve", "--port", "0", ...extra], env, /serving on (http:\/\/127\.0\.0\.1:\d+)/);
}

/** `chunkeval worker [extra…]`; resolves once it says it runs jobs (`url` is empty). */
export function startWorker(env: NodeJS.ProcessEnv, extra: string[] = []): Promise<Started> {
  return startChild(["worker", ...extra], env, /chunkeval worker running jobs()/);
}

async function startChild(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Started> {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise((r) => child.once("exit", r));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chunkeval ${args[0]} did not start: ${log}`)), 180000);
    child.stderr!.on("data", () => {
      const m = log.match(ready);
      if (m) (clearTimeout(timer), resolve(m[1]!));
    });
    void exited.then(() => (clearTimeout(timer), reject(new Error(`chunkeval ${args[0]} exited: ${log}`))));
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, pid: child.pid!, stop: () => end("SIGTERM"), kill9: () => end("SIGKILL") };
}

/** Sends `total` requests from `concurrency` clients; returns p50/p99 (ms), requests per second and failures. */
export async function measure(total: number, concurrency: number, send: (i: number) => Promise<Response>) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const r = await send(i);
        await r.arrayBuffer();
        if (!r.ok) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return { p50: pct(50), p99: pct(99), rps: total / seconds, failures };
}
