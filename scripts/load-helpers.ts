/** Shared by the load scripts: a `chunkeval serve` child on 127.0.0.1 and a bounded load loop. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../bin/chunkeval.js", import.meta.url));

export async function startServe(env: NodeJS.ProcessEnv): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const server: ChildProcess = spawn(process.execPath, [BIN, "serve", "--port", "0"], { env, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  server.stderr!.on("data", (d) => (log += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${log}`)), 180000);
    server.stderr!.on("data", () => {
      const m = log.match(/serving on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) (clearTimeout(timer), resolve(m[1]!));
    });
  });
  return {
    url,
    pid: server.pid!,
    stop: async () => {
      server.kill("SIGTERM");
      await new Promise((r) => server.on("exit", r));
    },
  };
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
