/**
 * Load figures for the REST API: starts `chunkeval serve` on 127.0.0.1 (default stack unless
 * --embedder is given) over a temporary data directory, uploads and processes the large
 * example, then for 1, 8 and 32 concurrent clients sends a bounded number of POST /queries
 * and GET /documents requests and prints p50, p99 and requests per second.
 *
 *   npm run load:http [-- --embedder hash] [-- --requests 200]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const { values } = parseArgs({ options: { embedder: { type: "string" }, requests: { type: "string", default: "200" } } });
const perLevel = Math.min(2000, Math.max(10, Number(values.requests)));
const dir = mkdtempSync(join(tmpdir(), "chunkeval-load-"));
const bin = fileURLToPath(new URL("../bin/chunkeval.js", import.meta.url));
const env = { ...process.env, CHUNKEVAL_DATA_DIR: join(dir, "data"), ...(values.embedder ? { CHUNKEVAL_EMBEDDER: values.embedder } : {}) };
const server = spawn(process.execPath, [bin, "serve", "--port", "0"], { env, stdio: ["ignore", "ignore", "pipe"] });
let log = "";
server.stderr.on("data", (d) => (log += d));
const url = await new Promise<string>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`server did not start: ${log}`)), 30000);
  server.stderr.on("data", () => {
    const m = log.match(/serving on (http:\/\/127\.0\.0\.1:\d+)/);
    if (m) (clearTimeout(timer), resolve(m[1]!));
  });
});

const form = new FormData();
form.append("file", new Blob([readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url))]), "harbor-light-handbook.docx");
const doc = (await (await fetch(`${url}/documents`, { method: "POST", body: form })).json()) as { id: string };
await fetch(`${url}/documents/${doc.id}/process`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ strategies: ["recursive"] }) });
const questions = (JSON.parse(readFileSync(new URL("../questions/harbor-light-handbook.json", import.meta.url), "utf8")) as Array<{ question: string }>).map((q) => q.question);

async function measure(label: string, concurrency: number, send: (i: number) => Promise<Response>): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < perLevel) {
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
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
  console.log(`${label.padEnd(16)} c=${String(concurrency).padStart(2)}  p50 ${pct(50).padStart(7)} ms  p99 ${pct(99).padStart(7)} ms  ${(perLevel / seconds).toFixed(1).padStart(7)} req/s  (${perLevel} requests, ${failures} failed)`);
}

console.log(`server ${url}; embedder ${values.embedder ?? "use (default)"}; document ${doc.id} processed with recursive`);
for (const c of [1, 8, 32]) {
  await measure("POST /queries", c, (i) =>
    fetch(`${url}/queries`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ document_id: doc.id, strategy: "recursive", question: questions[i % questions.length], top_k: 5 }) }),
  );
}
for (const c of [1, 8, 32]) await measure("GET /documents", c, () => fetch(`${url}/documents`));
server.kill("SIGTERM");
await new Promise((r) => server.on("exit", r));
rmSync(dir, { recursive: true, force: true });
