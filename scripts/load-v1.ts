/**
 * /v1 figures: starts `chunkeval serve` on 127.0.0.1 (default stack unless --embedder) over a
 * temporary data directory, creates a tenant, key and domain, ingests the large example through
 * POST /v1/files (time to 201, chunks per second), then sends a bounded number of POST /v1/search
 * requests from 8 concurrent clients and prints p50, p99 and requests per second.
 *
 *   npm run load:v1 [-- --embedder hash] [-- --requests 200]
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const { values } = parseArgs({ options: { embedder: { type: "string" }, requests: { type: "string", default: "200" } } });
const total = Math.min(2000, Math.max(10, Number(values.requests)));
const dir = mkdtempSync(join(tmpdir(), "chunkeval-load-v1-"));
const bin = fileURLToPath(new URL("../bin/chunkeval.js", import.meta.url));
const env = { ...process.env, CHUNKEVAL_DATA_DIR: join(dir, "data"), ...(values.embedder ? { CHUNKEVAL_EMBEDDER: values.embedder } : {}) };
const cli = (args: string[]) => spawnSync(process.execPath, [bin, ...args, "--json"], { env, encoding: "utf8" });
cli(["tenants", "create", "loadtest"]);
const key = JSON.parse(cli(["keys", "create", "--tenant", "loadtest", "--scopes", "files:write,domains:read,domains:write"]).stdout).secret as string;
const auth = { authorization: `Bearer ${key}` };

const server = spawn(process.execPath, [bin, "serve", "--port", "0"], { env, stdio: ["ignore", "ignore", "pipe"] });
let log = "";
server.stderr.on("data", (d) => (log += d));
const url = await new Promise<string>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`server did not start: ${log}`)), 60000);
  server.stderr.on("data", () => {
    const m = log.match(/serving on (http:\/\/127\.0\.0\.1:\d+)/);
    if (m) (clearTimeout(timer), resolve(m[1]!));
  });
});
await fetch(`${url}/v1/domains`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ domain: "handbooks", display_name: "Handbooks" }) });

const form = new FormData();
form.append("domain", "handbooks");
form.append("file", new Blob([readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url))]), "harbor-light-handbook.docx");
const t0 = performance.now();
const response = await fetch(`${url}/v1/files`, { method: "POST", headers: auth, body: form });
const ingestSeconds = (performance.now() - t0) / 1000;
const result = (await response.json()) as { chunks_indexed: number };
console.log(`POST /v1/files: ${response.status} in ${ingestSeconds.toFixed(2)} s, ${result.chunks_indexed} chunks, ${(result.chunks_indexed / ingestSeconds).toFixed(1)} chunks/s (embedder ${values.embedder ?? "use"}, cold model cache)`);

const questions = (JSON.parse(readFileSync(new URL("../questions/harbor-light-handbook.json", import.meta.url), "utf8")) as Array<{ question: string }>).map((q) => q.question);
const latencies: number[] = [];
let next = 0;
let failures = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next < total) {
      const i = next++;
      const t = performance.now();
      const r = await fetch(`${url}/v1/search`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ query: questions[i % questions.length], top_k: 5 }) });
      await r.arrayBuffer();
      if (!r.ok) failures++;
      latencies.push(performance.now() - t);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
console.log(`POST /v1/search c=8: p50 ${pct(50)} ms, p99 ${pct(99)} ms, ${(total / seconds).toFixed(1)} req/s (${total} requests cycling through ${questions.length} questions, ${failures} failed)`);
server.kill("SIGTERM");
await new Promise((r) => server.on("exit", r));
rmSync(dir, { recursive: true, force: true });
